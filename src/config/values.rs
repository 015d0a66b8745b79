//! The values config keys take, read with the command line's own names and
//! rules: the enums by their option values, shapes by name, sizes as `5MB` or a
//! number of bytes.

use std::fmt;

use clap::ValueEnum;
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use crate::shapes::Shape;

/// One of an option's values (`profile = "anthropic"`), as `--profile` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice<T>(pub T);

impl<'de, T: ValueEnum> Deserialize<'de> for Choice<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        // Hidden values (`resize --format json`, a common slip) are not offered.
        T::from_str(&text, false)
            .ok()
            .filter(|value| value.to_possible_value().is_some_and(|v| !v.is_hide_set()))
            .map(Choice)
            .ok_or_else(|| de::Error::custom(expected(&text, &names::<T>())))
    }
}

/// The visible values of an option.
fn names<T: ValueEnum>() -> Vec<String> {
    T::value_variants()
        .iter()
        .filter_map(ValueEnum::to_possible_value)
        .filter(|value| !value.is_hide_set())
        .map(|value| value.get_name().to_string())
        .collect()
}

/// `invalid value "x"; expected one of a, b, c`.
fn expected(text: &str, names: &[String]) -> String {
    format!(
        "invalid value {text:?}; expected one of {}",
        names.join(", ")
    )
}

/// `target`: a shape's name, as `--target` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TargetShape(pub Shape);

impl<'de> Deserialize<'de> for TargetShape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Shape::from_name(&text).map(TargetShape).ok_or_else(|| {
            let names: Vec<String> = Shape::ALL.iter().map(|s| s.name().to_string()).collect();
            de::Error::custom(expected(&text, &names))
        })
    }
}

/// `from`: a shape's name or `auto`, as `--from` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FromShape(pub Option<Shape>);

impl<'de> Deserialize<'de> for FromShape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text == "auto" {
            return Ok(FromShape(None));
        }
        Shape::from_name(&text)
            .map(|shape| FromShape(Some(shape)))
            .ok_or_else(|| {
                let names: Vec<String> = std::iter::once("auto".to_string())
                    .chain(Shape::ALL.iter().map(|s| s.name().to_string()))
                    .collect();
                de::Error::custom(expected(&text, &names))
            })
    }
}

/// A size in bytes: `"5MB"`, `"5MiB"` or a number (`5000000`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size(pub u64);

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SizeVisitor)
    }
}

struct SizeVisitor;

impl Visitor<'_> for SizeVisitor {
    type Value = Size;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a size such as \"5MB\" or a number of bytes")
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Size, E> {
        u64::try_from(value)
            .map(Size)
            .map_err(|_| E::custom(format!("invalid size {value}: a size cannot be negative")))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Size, E> {
        Ok(Size(value))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Size, E> {
        crate::size::parse_size(text).map(Size).map_err(E::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::ProfileArg;

    #[derive(Debug, Deserialize)]
    struct Doc {
        profile: Option<Choice<ProfileArg>>,
        size: Option<Size>,
        target: Option<TargetShape>,
        from: Option<FromShape>,
    }

    fn read(text: &str) -> Result<Doc, String> {
        toml::from_str(text).map_err(|e| e.message().to_string())
    }

    #[test]
    fn values_read_as_the_command_line_reads_them() {
        let doc = read(
            "profile = \"anthropic\"\nsize = \"5MiB\"\ntarget = \"openai-chat\"\nfrom = \"auto\"",
        )
        .unwrap();
        assert_eq!(doc.profile, Some(Choice(ProfileArg::Anthropic)));
        assert_eq!(doc.size, Some(Size(5 << 20)));
        assert_eq!(doc.target, Some(TargetShape(Shape::OpenaiChat)));
        assert_eq!(doc.from, Some(FromShape(None)));
        assert_eq!(read("size = 1_000").unwrap().size, Some(Size(1000)));
    }

    #[test]
    fn bad_values_say_what_was_expected() {
        let error = read("profile = \"antropic\"").unwrap_err();
        assert_eq!(
            error,
            "invalid value \"antropic\"; expected one of default, openai, anthropic, gemini, bedrock"
        );
        assert!(read("size = -1")
            .unwrap_err()
            .contains("cannot be negative"));
        assert!(read("size = \"5XB\"").unwrap_err().contains("unknown unit"));
        assert!(read("size = true").unwrap_err().contains("a size such as"));
        assert!(read("target = \"gpt\"")
            .unwrap_err()
            .contains("openai-chat"));
    }
}
