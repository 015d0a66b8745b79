//! The fast path of writing a tree as compact JSON (docs/large-documents.md): what `split`
//! prints, byte for byte what serde_json's compact serializer writes.
//!
//! Why: `split`'s output is the replies' base64 again, ~all of its bytes, and
//! serde_json looks up every byte of a string in its escape table; strings go
//! through [`crate::render::write_str`] instead, which copies a run with
//! nothing to escape (every base64 payload) as it is. Numbers go to serde_json.

use super::Json;

/// Appends `value` as compact JSON to `out`.
pub fn write_compact(out: &mut Vec<u8>, value: &Json<'_>) -> Result<(), serde_json::Error> {
    match value {
        Json::Null => out.extend_from_slice(b"null"),
        Json::Bool(true) => out.extend_from_slice(b"true"),
        Json::Bool(false) => out.extend_from_slice(b"false"),
        Json::Number(_) => serde_json::to_writer(&mut *out, value)?,
        Json::String(text) => write_string(out, text)?,
        Json::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_compact(out, item)?;
            }
            out.push(b']');
        }
        Json::Object(members) => {
            out.push(b'{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(out, key)?;
                out.push(b':');
                write_compact(out, item)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

fn write_string(out: &mut Vec<u8>, text: &str) -> Result<(), serde_json::Error> {
    crate::render::write_str(out, text).map_err(serde_json::Error::io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_serde_json_writes() {
        let text = r#"{"a":"plain","b":"q\"b\\s\/c\u0001\n\u007f é🚀","c":[1,-0.5,2.5E3,true,false,null,{},[]],"k\"ey":{"x":"AAAA+/=="}}"#;
        let json = super::super::parse(text.as_bytes()).unwrap();
        let mut fast = Vec::new();
        write_compact(&mut fast, &json).unwrap();
        assert_eq!(
            String::from_utf8(fast).unwrap(),
            serde_json::to_string(&json).unwrap()
        );
    }
}
