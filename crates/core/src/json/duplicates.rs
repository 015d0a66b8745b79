//! Where a document writes a key twice in one object, for `validate`'s
//! `duplicate-key` finding. Read only when parsing counted one
//! ([`super::Parsed::duplicates`]): a second pass over a rare document, no
//! cost for the others.

use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::pointer_token;

/// A key written more than once: the pointer of its (last) member, and how
/// many times the object has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub pointer: String,
    pub key: String,
    pub count: usize,
}

/// Every key written more than once in an object of `bytes`, in document
/// order; empty when `bytes` is not JSON (or nests deeper than serde_json
/// reads).
pub fn duplicate_keys(bytes: &[u8]) -> Vec<Duplicate> {
    let mut found = Vec::new();
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let seed = Walk {
        pointer: String::new(),
        found: &mut found,
    };
    match seed.deserialize(&mut deserializer) {
        Ok(()) => found,
        Err(_) => Vec::new(),
    }
}

struct Walk<'f> {
    pointer: String,
    found: &'f mut Vec<Duplicate>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            let seed = Walk {
                pointer: format!("{}/{index}", self.pointer),
                found: &mut *self.found,
            };
            if seq.next_element_seed(seed)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut counts: Vec<(String, usize)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let pointer = format!("{}/{}", self.pointer, pointer_token(&key));
            if key == super::NUMBER_TOKEN {
                // serde_json's spelling of an exact number, not a member.
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            map.next_value_seed(Walk {
                pointer,
                found: &mut *self.found,
            })?;
            if !seen.insert(key.clone()) {
                match counts.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((key, 2)),
                }
            }
        }
        for (key, count) in counts {
            self.found.push(Duplicate {
                pointer: format!("{}/{}", self.pointer, pointer_token(&key)),
                key,
                count,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_key_written_twice() {
        let text = br#"{"a":1,"b":{"c":[{"d":1,"d":2,"d":3}],"c":null},"a":2,"e/f":0,"e/f":1}"#;
        let found = duplicate_keys(text);
        let shown: Vec<(&str, usize)> = found
            .iter()
            .map(|d| (d.pointer.as_str(), d.count))
            .collect();
        assert_eq!(
            shown,
            [("/b/c/0/d", 3), ("/b/c", 2), ("/a", 2), ("/e~1f", 2)]
        );
        assert!(duplicate_keys(br#"{"a":1,"b":{"a":2}}"#).is_empty());
        assert!(duplicate_keys(b"{not json").is_empty());
    }

    #[test]
    fn parsing_keeps_the_last_value_in_the_first_place() {
        for text in [
            r#"{"a":1,"b":2,"a":3}"#,
            // Through serde_json (an exponent): the same reading.
            r#"{"a":1e5,"b":2,"a":3}"#,
        ] {
            let parsed = crate::json::parse_counted(text.as_bytes()).unwrap();
            let doc = parsed.json;
            let keys: Vec<&str> = doc
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, _)| k.as_ref())
                .collect();
            assert_eq!(keys, ["a", "b"]);
            assert_eq!(
                doc.get("a").unwrap(),
                &crate::json::Json::Number("3".into())
            );
            assert_eq!(parsed.duplicates, 1);
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(doc.to_value(), value, "serde_json reads it the same way");
        }
        // A large object is searched through an index.
        let mut text = String::from("{");
        for i in 0..100 {
            text.push_str(&format!("\"k{i}\":{i},"));
        }
        text.push_str("\"k7\":\"last\"}");
        let parsed = crate::json::parse_counted(text.as_bytes()).unwrap();
        assert_eq!(parsed.json.as_object().unwrap().len(), 100);
        assert_eq!(parsed.json.get("k7").unwrap().as_str(), Some("last"));
        assert_eq!(parsed.duplicates, 1);
        // Counted by the parse that saw them, nowhere else.
        assert_eq!(
            crate::json::parse_counted(b"{\"a\":1}").unwrap().duplicates,
            0
        );
    }
}
