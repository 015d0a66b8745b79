//! Writing canonical tools as Gemini `tools` (function declarations, and
//! the tool kinds a Gemini input had).

use serde_json::{Map, Value};

use super::{restore_kept, Writer};
use crate::contract::ConvertError;
use crate::shapes::gemini::{hint, mine, schema_to_json};
use crate::shapes::kit::{drop_foreign, put};
use crate::shapes::{object, string};
use crate::transcript::{Tool, Transcript};

impl Writer<'_> {
    /// `tools`: one object with every function declaration, then one per kept
    /// tool kind; or the grouping a Gemini input had.
    pub(super) fn tools(&mut self, transcript: &Transcript) -> Result<Option<Value>, ConvertError> {
        let extensions = &transcript.extensions;
        let mut declarations = Vec::new();
        for tool in transcript.tools.iter().flatten() {
            if let Some(declaration) = self.declaration(tool)? {
                declarations.push(declaration);
            }
        }
        let mut kinds: Vec<(String, Value)> = mine(extensions)
            .into_iter()
            .flatten()
            .filter_map(|(key, value)| {
                key.strip_prefix("tools.")
                    .map(|kind| (kind.to_string(), value.clone()))
            })
            .collect();
        let layout = hint(extensions, "tools").and_then(Value::as_array);
        if transcript.tools.is_none() && kinds.is_empty() && layout.is_none() {
            return Ok(None);
        }
        let mut tools = Vec::new();
        let mut declarations = declarations.into_iter();
        for entry in layout.into_iter().flatten() {
            let mut tool = Map::new();
            for (key, value) in entry.as_object().into_iter().flatten() {
                if key == "functionDeclarations" {
                    let count = value.as_u64().unwrap_or(0) as usize;
                    let taken: Vec<Value> = declarations.by_ref().take(count).collect();
                    put(&mut tool, key, Value::Array(taken));
                } else if let Some(at) = kinds.iter().position(|(kind, _)| kind == key) {
                    let (kind, value) = kinds.remove(at);
                    put(&mut tool, &kind, value);
                }
            }
            tools.push(Value::Object(tool));
        }
        let rest: Vec<Value> = declarations.collect();
        if !rest.is_empty() {
            tools.push(object([("functionDeclarations", Value::Array(rest))]));
        }
        for (kind, value) in kinds {
            tools.push(object([(kind.as_str(), value)]));
        }
        Ok(Some(Value::Array(tools)))
    }

    /// A function declaration: the schema as `parametersJsonSchema`, or as
    /// `parameters` when a Gemini input had it there. Gemini has no per-tool
    /// `strict`.
    pub(super) fn declaration(&mut self, tool: &Tool) -> Result<Option<Value>, ConvertError> {
        drop_foreign(&tool.extensions, self.context)?;
        if tool.name.is_empty() {
            self.context.lose("tools without a name")?;
            return Ok(None);
        }
        if tool.strict == Some(true) {
            self.context.lose("per-tool strict")?;
        }
        let mut map = Map::new();
        put(&mut map, "name", string(&tool.name));
        if let Some(description) = &tool.description {
            put(&mut map, "description", string(description));
        }
        if let Some(parameters) = &tool.parameters {
            match hint(&tool.extensions, "parameters") {
                Some(Value::String(_)) => put(&mut map, "parameters", parameters.clone()),
                Some(original) if &schema_to_json(original) == parameters => {
                    put(&mut map, "parameters", original.clone())
                }
                _ => put(&mut map, "parametersJsonSchema", parameters.clone()),
            }
        }
        restore_kept(&mut map, &tool.extensions);
        Ok(Some(Value::Object(map)))
    }
}
