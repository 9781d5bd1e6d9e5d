"""Which tests share a pytest-xdist worker (tests/support/worker_groups.py): a file is a unit, a page-by-page browser
file is one unit per page, and units go out heaviest first."""

from __future__ import annotations

from support.worker_groups import PER_PAGE, unit_of, weight


def test_a_file_is_one_unit():
    assert unit_of("tests/tool/test_new.py::test_it[cargo-with-dashes]") == "tests/tool/test_new.py"
    assert unit_of("tests/tool/test_new.py::test_plain") == "tests/tool/test_new.py"


def test_a_page_by_page_file_is_one_unit_per_page_whatever_else_its_parameters_say():
    (pages,) = PER_PAGE
    assert unit_of(f"{pages}::test_tabs[docs/mcp/every-request-stands-alone.md]") == \
        f"{pages}[docs/mcp/every-request-stands-alone.md]"
    assert unit_of(f"{pages}::test_fits[docs/mcp/stdio-transport.md-phone]") == \
        unit_of(f"{pages}::test_copy[docs/mcp/stdio-transport.md]") == \
        f"{pages}[docs/mcp/stdio-transport.md]"
    assert unit_of(f"{pages}::test_every_built_page_is_tested") == pages
    assert unit_of("tests/browser/test_conversation.py::test_x[docs/mcp/stdio-transport.md]") == \
        "tests/browser/test_conversation.py"


def test_a_browser_test_weighs_more_than_a_tool_test():
    one_browser_test, two_tool_tests = {"a": False}, {"a": False, "b": False}
    assert weight("tests/browser/test_run_here.py", one_browser_test) > weight("tests/tool/test_new.py", two_tool_tests)


def test_the_rmcp_features_builds_go_out_before_any_page():
    """Six tests, but each row builds rmcp once per feature set: on a fresh clone it must not start last."""
    six = {str(n): False for n in range(6)}
    busiest_page = {str(n): False for n in range(60)}
    assert weight("tests/interop/test_rmcp_features.py", six) > weight("tests/browser/test_run_here.py", busiest_page)
