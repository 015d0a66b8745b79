//! Reading the settings of a Gemini request: `tools`, `toolConfig` and
//! `generationConfig`.

use super::keep_rest;
use super::parts::extensions;
use crate::contract::ext::Own;
use crate::contract::ConvertError;
use crate::json::{Node, Object, View};
use crate::shapes::gemini::enums::{self, CALLING_MODES};
use crate::shapes::gemini::repeated::{self, Singles};
use crate::shapes::gemini::{camel, camelize, get, schema_to_json};
use crate::shapes::kit::invalid;
use crate::transcript::{Tool, ToolChoice, Transcript};
use serde_json::{Map, Value};

/// Reads `tools`: every function declaration is a canonical tool; other tool
/// kinds (`googleSearch`, `codeExecution`, …) are kept as `tools.<kind>`. A
/// `$tools` hint records the grouping when it is not one object of all
/// declarations followed by one object per other kind.
pub(super) fn read_tools<N: Node>(
    value: &N,
    at: &str,
    transcript: &mut Transcript,
    own: &mut Own,
    singles: &mut Singles,
) -> Result<(), ConvertError> {
    let (items, single) = repeated::items(value, at);
    singles.note("tools", single);
    let mut tools = Vec::new();
    let mut layout = Vec::new();
    let mut kinds = Vec::new();
    for (i, (here, item)) in items.iter().enumerate() {
        let map = item
            .as_object()
            .ok_or_else(|| invalid(here, "a tool must be an object"))?;
        let mut entry = Map::new();
        for (key, value) in map.members() {
            let name = camel(key).into_owned();
            if name == "functionDeclarations" {
                let (declarations, single) = repeated::items(value, &format!("{here}/{key}"));
                singles.note(&format!("tools.{i}.functionDeclarations"), single);
                for (there, declaration) in &declarations {
                    tools.push(read_declaration(*declaration, there)?);
                }
                entry.insert(name, Value::from(declarations.len()));
            } else {
                own.keep(&format!("tools.{name}"), &camelize(value));
                entry.insert(name.clone(), Value::Null);
                kinds.push(name);
            }
        }
        layout.push(Value::Object(entry));
    }
    let mut default = Vec::new();
    if !tools.is_empty() {
        default.push(serde_json::json!({"functionDeclarations": tools.len()}));
    }
    for kind in kinds {
        let mut entry = Map::new();
        entry.insert(kind, Value::Null);
        default.push(Value::Object(entry));
    }
    if layout != default {
        own.hint("tools", Value::Array(layout));
    }
    if !tools.is_empty() || items.is_empty() {
        transcript.tools = Some(tools);
    }
    Ok(())
}

/// Reads a function declaration. `parametersJsonSchema` is the canonical
/// schema as it is; `parameters` (Gemini's OpenAPI subset) becomes JSON Schema,
/// with a hint that holds the original when they differ.
pub(super) fn read_declaration<N: Node>(value: &N, at: &str) -> Result<Tool, ConvertError> {
    let map = crate::shapes::kit::object_at(value, at, "a function declaration must be an object")?;
    let name = get(map, "name")
        .and_then(Node::as_str)
        .ok_or_else(|| invalid(&format!("{at}/name"), "a function declaration needs a name"))?;
    let mut own = Own::new();
    let mut known = vec!["name"];
    let description = match get(map, "description").and_then(Node::as_str) {
        Some(description) => {
            known.push("description");
            Some(description.to_string())
        }
        None => None,
    };
    let parameters = match (get(map, "parametersJsonSchema"), get(map, "parameters")) {
        (Some(schema), _) => {
            known.push("parametersJsonSchema");
            Some(schema).filter(|s| !s.is_null()).map(Node::to_value)
        }
        (None, Some(schema)) => {
            known.push("parameters");
            let converted = schema_to_json(schema);
            if same(schema, &converted) {
                own.hint("parameters", "schema");
            } else {
                own.hint("parameters", schema.to_value());
            }
            Some(converted).filter(|s| !s.is_null())
        }
        (None, None) => None,
    };
    keep_rest(&mut own, map, &known, "");
    Ok(Tool {
        name: name.to_string(),
        description,
        parameters,
        strict: None,
        extensions: extensions(own),
    })
}

/// Reads `toolConfig.functionCallingConfig` as the tool choice: AUTO → auto,
/// NONE → none, ANY → required, ANY with exactly one allowed name → that tool.
/// The mode may be its enum number (a `$mode` hint writes it back so), the
/// names one name. Everything else (VALIDATED, several allowed names, other
/// configs) is kept.
pub(super) fn read_tool_config<N: Node>(
    value: &N,
    transcript: &mut Transcript,
    own: &mut Own,
    empty: &mut Vec<Value>,
    singles: &mut Singles,
) {
    let Some(config) = value.as_object() else {
        own.keep("toolConfig", value);
        return;
    };
    if config.is_empty() {
        empty.push(Value::String("toolConfig".into()));
    }
    keep_rest(own, config, &["functionCallingConfig"], "toolConfig.");
    let Some(calling) = get(config, "functionCallingConfig") else {
        return;
    };
    let Some(calling) = calling.as_object() else {
        own.keep("toolConfig.functionCallingConfig", calling);
        return;
    };
    if calling.is_empty() {
        empty.push(Value::String("toolConfig.functionCallingConfig".into()));
    }
    let prefix = "toolConfig.functionCallingConfig.";
    let mode = get(calling, "mode").and_then(|mode| enums::name(mode, CALLING_MODES));
    let numbered = mode.is_some_and(|(_, number)| number);
    let mode = mode.map(|(name, _)| name);
    let names: Option<Vec<&str>> = match get(calling, "allowedFunctionNames").map(Node::view) {
        None => None,
        Some(View::Array(names)) => names.iter().map(Node::as_str).collect(),
        Some(View::String(name)) => {
            singles.note(&format!("{prefix}allowedFunctionNames"), true);
            Some(vec![name])
        }
        Some(_) => None,
    };
    let has_names = get(calling, "allowedFunctionNames").is_some();
    let (choice, known): (Option<ToolChoice>, &[&str]) = match (mode, has_names, names.as_deref()) {
        (Some("AUTO"), false, _) => (Some(ToolChoice::Auto), &["mode"]),
        (Some("NONE"), false, _) => (Some(ToolChoice::None), &["mode"]),
        (Some("ANY"), false, _) => (Some(ToolChoice::Required), &["mode"]),
        (Some("ANY"), true, Some([name])) => (
            Some(ToolChoice::Tool(name.to_string())),
            &["mode", "allowedFunctionNames"],
        ),
        // Several allowed names: a call is required; the list itself is kept.
        (Some("ANY"), true, _) => (Some(ToolChoice::Required), &["mode"]),
        _ => (None, &[]),
    };
    if choice.is_some() && numbered {
        own.hint("mode", "number");
    }
    transcript.tool_choice = choice;
    keep_rest(own, calling, known, prefix);
}

/// Reads `generationConfig`: `maxOutputTokens`, `temperature`, `topP` and
/// `stopSequences` map to the model; everything else is kept.
pub(super) fn read_generation_config<N: Node>(
    value: &N,
    transcript: &mut Transcript,
    own: &mut Own,
    empty: &mut Vec<Value>,
    singles: &mut Singles,
) {
    let Some(config) = value.as_object() else {
        own.keep("generationConfig", value);
        return;
    };
    if config.is_empty() {
        empty.push(Value::String("generationConfig".into()));
    }
    let mut known = Vec::new();
    for (name, slot) in [
        ("maxOutputTokens", &mut transcript.max_tokens),
        ("temperature", &mut transcript.temperature),
        ("topP", &mut transcript.top_p),
    ] {
        if let Some(number) = get(config, name).filter(|v| v.is_number()) {
            *slot = Some(number.to_value());
            known.push(name);
        }
    }
    if let Some(stops) = get(config, "stopSequences") {
        let (stops, single) = repeated::items(stops, "");
        if let Some(stops) = stops
            .iter()
            .map(|(_, s)| s.as_str().map(str::to_string))
            .collect::<Option<Vec<String>>>()
        {
            singles.note("generationConfig.stopSequences", single);
            transcript.stop = Some(stops);
            known.push("stopSequences");
        }
    }
    keep_rest(own, config, &known, "generationConfig.");
}

/// Whether `node` is the JSON value `value` (what `==` says of two `Value`s:
/// objects alike whatever their order), read without copying `node`.
fn same<N: Node>(node: &N, value: &Value) -> bool {
    match (node.view(), value) {
        (View::Null, Value::Null) => true,
        (View::Bool(a), Value::Bool(b)) => a == *b,
        // A number's text is in its `Value` only; numbers are small.
        (View::Number, Value::Number(_)) => node.to_value() == *value,
        (View::String(a), Value::String(b)) => a == b,
        (View::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (View::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.members()
                    .all(|(key, a)| b.get(key).is_some_and(|b| same(a, b)))
        }
        _ => false,
    }
}
