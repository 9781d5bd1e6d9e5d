"""The tool's error hierarchy: each class is one failure family, mapped to one exit code."""

# Exit codes, listed in `--help`. A run that finds several kinds of trouble exits with the first that applies,
# in this order: usage, example failure, broken page, drift.
EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_EXAMPLE_FAILED = 3
EXIT_BROKEN_PAGE = 4
EXIT_DRIFT = 5
EXIT_SANDBOX = 6

EXIT_CODES_HELP = """exit codes:
  0  every example verified and every page up to date (or, without --check, written)
  1  internal error in the tool itself (a bug: please report it)
  2  usage error: bad arguments, unknown example name, missing schema package
  3  an example failed: bad example.toml or layout, build error, crash, hang, flood, wire violation,
     twins disagree, nondeterminism
  4  a page is broken: bad marker, unknown file or region, path escape, example pasted by no page, or the
     conformance report card's record no longer matches the examples it is about
  5  drift (--check only): an answer key or a pasted block differs from what the tool would write
  6  no sandbox: bubblewrap is missing or cannot create namespaces here (the message says how to fix it)"""


class ToolError(Exception):
    """Base class: a message meant for the author, and the exit code of its family."""

    exit_code = EXIT_INTERNAL

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def location(self) -> str:
        if self.file and self.line:
            return f"{self.file}:{self.line}"
        return self.file or ""

    def __str__(self) -> str:
        where = self.location()
        return f"{where}: {self.message}" if where else self.message


class UsageError(ToolError):
    exit_code = EXIT_USAGE


class ExampleError(ToolError):
    """An example cannot be verified: it does not build, run or speak the wire as it must."""

    exit_code = EXIT_EXAMPLE_FAILED


class ConfigError(ExampleError):
    """example.toml or the folder layout is wrong."""


class BuildError(ExampleError):
    pass


class RunError(ExampleError):
    """The server crashed, hung, flooded stdout or exited with the wrong status."""


class SandboxError(ToolError):
    """The sandbox every build and run needs cannot be set up: nothing is run without it."""

    exit_code = EXIT_SANDBOX


class PageError(ToolError):
    """A page's markers are wrong, or the page graph is incomplete."""

    exit_code = EXIT_BROKEN_PAGE
