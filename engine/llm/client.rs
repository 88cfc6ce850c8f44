//! One chat-completions request to an OpenAI-compatible server (llama.cpp's server,
//! Ollama, vLLM…) over plain HTTP with `ureq`: no proxy from the environment, no
//! redirects, a timeout per request. The API key goes into the `Authorization` header
//! and nowhere else; every message this module makes has it blanked out.

use std::time::Duration;

use serde::Deserialize;

/// Where the server is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The chat-completions URL (`…/v1/chat/completions`).
    pub url: String,
    /// Host as written (for messages).
    pub host: String,
    /// Whether the host is this machine (`localhost`, `127.0.0.0/8`, `::1`).
    pub loopback: bool,
}

/// Why a `--llm-url` is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// Only `http://` is spoken.
    #[error("--llm-url {0:?}: tg speaks plain http:// to a model server (no TLS); give http://HOST:PORT/v1")]
    Scheme(String),
    /// No host.
    #[error("--llm-url {0:?} names no host; give http://HOST:PORT/v1")]
    NoHost(String),
}

impl Endpoint {
    /// Parses a base URL (`http://127.0.0.1:8080/v1`) or a full chat-completions URL.
    pub fn parse(url: &str) -> Result<Endpoint, UrlError> {
        let url = url.trim();
        let Some(rest) = url.strip_prefix("http://") else { return Err(UrlError::Scheme(url.into())) };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host = if let Some(v6) = authority.strip_prefix('[') {
            v6.split(']').next().unwrap_or("").to_string()
        } else {
            authority.rsplit_once(':').map_or(authority, |(h, _)| h).to_string()
        };
        if host.is_empty() || authority.contains('@') {
            return Err(UrlError::NoHost(url.into()));
        }
        let loopback = host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
        let base = url.trim_end_matches('/');
        let full = if base.ends_with("/chat/completions") { base.to_string() } else { format!("{base}/chat/completions") };
        Ok(Endpoint { url: full, host, loopback })
    }
}

/// A model's answer: the message content and the tokens the server says it used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// `choices[0].message.content`.
    pub content: String,
    /// `usage.total_tokens` (or prompt + completion), 0 when the server reports none.
    pub tokens: u64,
}

/// Why a request gave no answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// No answer within the timeout.
    #[error("no answer within {0:.1} s")]
    Timeout(f64),
    /// The connection failed.
    #[error("cannot reach the server: {0}")]
    Connect(String),
    /// The server answered with an error status.
    #[error("the server answered HTTP {code}: {body}")]
    Status {
        /// HTTP status.
        code: u16,
        /// The start of the body.
        body: String,
    },
    /// The body is not a chat completion.
    #[error("the server's answer is not a chat completion: {0}")]
    BadResponse(String),
}

impl CallError {
    /// Whether trying again may help: timeouts, connection failures, 429 and 5xx.
    pub fn transient(&self) -> bool {
        match self {
            CallError::Timeout(_) | CallError::Connect(_) => true,
            CallError::Status { code, .. } => *code == 429 || *code >= 500,
            CallError::BadResponse(_) => false,
        }
    }
}

#[derive(Deserialize)]
struct Completion {
    #[serde(default)]
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<Usage>,
}

#[derive(Deserialize)]
struct Choice {
    message: Message,
}

#[derive(Deserialize)]
struct Message {
    #[serde(default)]
    content: Option<String>,
}

#[derive(Deserialize)]
struct Usage {
    #[serde(default)]
    total_tokens: Option<u64>,
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
}

/// The largest response body read (a chat completion is far smaller).
const MAX_BODY: u64 = 16 * 1024 * 1024;

/// `text` with every occurrence of `secret` blanked out, cut to `n` chars.
pub fn redact(text: &str, secret: Option<&str>, n: usize) -> String {
    let t = match secret {
        Some(k) if !k.is_empty() => text.replace(k, "[redacted]"),
        _ => text.to_string(),
    };
    tg_rules::claims::clip(t.trim(), n)
}

/// Sends one request body; `key` becomes `Authorization: Bearer KEY`.
pub fn send(endpoint: &Endpoint, key: Option<&str>, body: &str, timeout: Duration) -> Result<Reply, CallError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .proxy(None)
        .max_redirects(0)
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .user_agent(concat!("tg/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut req = agent.post(&endpoint.url).content_type("application/json");
    if let Some(k) = key.filter(|k| !k.is_empty()) {
        req = req.header("Authorization", format!("Bearer {k}"));
    }
    let clean = |s: String| redact(&s, key, 300);
    let mut resp = match req.send(body) {
        Ok(r) => r,
        Err(ureq::Error::Timeout(_)) => return Err(CallError::Timeout(timeout.as_secs_f64())),
        Err(ureq::Error::Io(e)) if matches!(e.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock) => return Err(CallError::Timeout(timeout.as_secs_f64())),
        Err(e) => return Err(CallError::Connect(clean(e.to_string()))),
    };
    let code = resp.status().as_u16();
    let text = match resp.body_mut().with_config().limit(MAX_BODY).read_to_string() {
        Ok(t) => t,
        Err(ureq::Error::Timeout(_)) => return Err(CallError::Timeout(timeout.as_secs_f64())),
        Err(e) => return Err(CallError::Connect(clean(format!("reading the answer: {e}")))),
    };
    if !(200..300).contains(&code) {
        return Err(CallError::Status { code, body: clean(text) });
    }
    let c: Completion = serde_json::from_str(&text).map_err(|e| CallError::BadResponse(clean(format!("{e}: {text}"))))?;
    let Some(content) = c.choices.into_iter().next().and_then(|ch| ch.message.content) else {
        return Err(CallError::BadResponse(clean(format!("no choices[0].message.content: {text}"))));
    };
    let tokens = c.usage.map_or(0, |u| u.total_tokens.unwrap_or(u.prompt_tokens.unwrap_or(0) + u.completion_tokens.unwrap_or(0)));
    Ok(Reply { content, tokens })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_http_with_a_host_and_loopback_is_told() {
        let e = Endpoint::parse("http://127.0.0.1:8080/v1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((e.url.as_str(), e.loopback), ("http://127.0.0.1:8080/v1/chat/completions", true));
        let e = Endpoint::parse("http://localhost:11434/v1/chat/completions/").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((e.url.as_str(), e.loopback), ("http://localhost:11434/v1/chat/completions", true));
        assert!(Endpoint::parse("http://[::1]:8000/v1").is_ok_and(|e| e.loopback && e.host == "::1"));
        assert!(Endpoint::parse("http://10.0.0.5:8000/v1").is_ok_and(|e| !e.loopback));
        assert!(matches!(Endpoint::parse("https://api.example.com/v1"), Err(UrlError::Scheme(_))));
        assert!(matches!(Endpoint::parse("http:///v1"), Err(UrlError::NoHost(_))));
        assert!(matches!(Endpoint::parse("http://user:pw@host/v1"), Err(UrlError::NoHost(_))));
    }

    #[test]
    fn redaction_blanks_the_key() {
        assert_eq!(redact("bad key sk-123 given", Some("sk-123"), 100), "bad key [redacted] given");
        assert_eq!(redact("x", None, 100), "x");
    }
}
