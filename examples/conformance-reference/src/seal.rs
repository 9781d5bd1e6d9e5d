// requestState, signed: `base64url(payload) "." base64url(HMAC-SHA256(key, payload))`, no padding.
// The client holds the state between rounds, so it comes back as untrusted input: a state whose
// tag does not match is refused. Signed, not encrypted: nothing secret goes in the payload.

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// Fixed so that the answer key is the same on every run. A real server loads a random key of at
/// least 32 bytes from its secret store and shares it between its replicas.
const DEMO_KEY: &[u8] = b"conformance-reference demo key: not a secret";

pub fn seal(payload: &str) -> String {
    let tag = mac().chain_update(payload.as_bytes()).finalize().into_bytes();
    format!("{}.{}", URL_SAFE_NO_PAD.encode(payload), URL_SAFE_NO_PAD.encode(tag))
}

/// The payload, if `token` is exactly what `seal` wrote; `None` for anything else.
pub fn open(token: &str) -> Option<String> {
    let (payload, tag) = token.split_once('.')?;
    let payload = URL_SAFE_NO_PAD.decode(payload).ok()?;
    let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
    mac().chain_update(&payload).verify_slice(&tag).ok()?;
    String::from_utf8(payload).ok()
}

fn mac() -> Hmac<Sha256> {
    Hmac::<Sha256>::new_from_slice(DEMO_KEY).expect("HMAC takes a key of any length")
}
