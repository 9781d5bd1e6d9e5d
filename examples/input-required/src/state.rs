// The requestState this server hands out: what it offered the user, bound to the request that
// asked, with an HMAC-SHA256 tag so that a client cannot change it. Signed, not encrypted: anyone
// can base64-decode the first half and read it, so nothing secret goes in.

// ANCHOR: seal
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

/// A fixed key keeps the answer key the same on every run. A real server loads a random key of
/// at least 32 bytes from its secret store, shares it between its replicas and rotates it.
const DEMO_KEY: &[u8] = b"input-required demo key: not a secret, never reuse it";

/// `base64url(payload) "." base64url(HMAC-SHA256(key, payload))`, no padding.
pub fn seal(payload: &str) -> String {
    let tag = mac().chain_update(payload.as_bytes()).finalize().into_bytes();
    format!("{}.{}", URL_SAFE_NO_PAD.encode(payload), URL_SAFE_NO_PAD.encode(tag))
}

/// The payload, if `token` is exactly what `seal` made of it; `None` for anything else. The
/// decoder refuses padding, foreign characters and stray low bits, and `verify_slice` compares
/// the tags in constant time, so a token is accepted only in the one form `seal` writes.
pub fn open(token: &str) -> Option<String> {
    let (payload, tag) = token.split_once('.')?;
    let payload = URL_SAFE_NO_PAD.decode(payload).ok()?;
    let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
    mac().chain_update(&payload).verify_slice(&tag).ok()?;
    String::from_utf8(payload).ok()
}

/// SHA-256 of the bytes that identify a request, base64url: what the state is bound to.
pub fn digest(salient: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(salient.as_bytes()))
}

fn mac() -> Hmac<Sha256> {
    Hmac::<Sha256>::new_from_slice(DEMO_KEY).expect("HMAC takes a key of any length")
}
// ANCHOR_END: seal
