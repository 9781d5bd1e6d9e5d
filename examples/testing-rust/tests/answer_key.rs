// Holds the server to the files this site keeps for it: transcript.jsonl (what a client writes)
// and answer_key.jsonl (what the server must write back). Each line goes to the child's stdin;
// after a request, the test reads one reply line and compares it with the answer key byte for
// byte. A reader's repository can keep these two files and this test, and nothing else.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

fn lines(file: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(str::to_owned).collect()
}

// ANCHOR: replay
#[test]
fn replies_match_the_answer_key() {
    let (transcript, answer_key) = (lines("transcript.jsonl"), lines("answer_key.jsonl"));
    let mut server = Command::new(env!("CARGO_BIN_EXE_testing-rust"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stdin = server.stdin.take().unwrap();
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    let mut expected = answer_key.iter();
    for (number, line) in transcript.iter().enumerate() {
        writeln!(stdin, "{line}").and_then(|_| stdin.flush()).expect("the server reads");
        let message: rmcp::serde_json::Value = rmcp::serde_json::from_str(line).expect("JSON");
        if message.get("id").is_none() {
            continue; // a notification: no reply to wait for
        }
        let mut reply = String::new();
        stdout.read_line(&mut reply).expect("the server writes");
        let want = expected.next().expect("the answer key has a reply for every request");
        assert_eq!(reply.trim_end_matches('\n'), want, "transcript line {}", number + 1);
    }
    drop(stdin); // end of input: the server exits
    assert!(server.wait().expect("the server exits").success());
    assert_eq!(expected.next(), None, "the answer key has more lines than the server wrote");
}
// ANCHOR_END: replay
