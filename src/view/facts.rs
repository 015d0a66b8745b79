//! What a rollout line says of itself (docs/commands/view.md#rollouts): its
//! reward, its task and rollout indices, its instance id, its agent, and
//! the environment's own fields — what someone debugging an RL environment
//! looks at first, shown in the index and in the document's header.
//!
//! Read from the line's top-level members only: the request and the
//! response (the bulk of a line, its images) are skipped unparsed, so the
//! cost does not grow with the conversation. Every value is kept as its
//! recorded text, so numbers keep their spelling (`1.0`, `1E5`).

use std::fmt;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::shapes::nemo_gym::rollout::{REQUEST_KEY, RESPONSE_KEY};

/// The members read as facts.
const REWARD: &str = "reward";
const TASK: &str = "_ng_task_index";
const ROLLOUT: &str = "_ng_rollout_index";
const INSTANCE: &str = "instance_id";
const AGENT: &str = "agent_ref";

/// A reward as recorded, and as a number when it is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Reward {
    pub text: String,
    pub value: Option<f64>,
}

/// The facts of one line; `None` where the line has no such member.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    pub reward: Option<Reward>,
    pub task: Option<String>,
    pub rollout: Option<String>,
    pub instance: Option<String>,
    pub agent: Option<String>,
    /// The line's other members (a rollout's environment fields), in
    /// order, as recorded.
    pub others: Vec<(String, Box<RawValue>)>,
}

impl Facts {
    /// Whether the line says anything a rollout says of itself.
    pub fn any(&self) -> bool {
        self.reward.is_some()
            || self.task.is_some()
            || self.rollout.is_some()
            || self.instance.is_some()
            || self.agent.is_some()
    }
}

/// The facts of the document `bytes`, when it is a JSON object. `others`
/// says whether to keep its other members: a rollout's are the
/// environment's fields; a transcript's are its conversation, not kept.
pub fn read(bytes: &[u8], others: bool) -> Option<Facts> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.deserialize_map(Members { others }).ok()
}

struct Members {
    others: bool,
}

impl<'de> Visitor<'de> for Members {
    type Value = Facts;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Facts, A::Error> {
        let mut facts = Facts::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                REQUEST_KEY | RESPONSE_KEY => {
                    map.next_value::<IgnoredAny>()?;
                }
                REWARD => {
                    let raw = map.next_value::<Box<RawValue>>()?;
                    facts.reward = Some(Reward {
                        value: raw.get().parse::<f64>().ok(),
                        text: scalar(&raw),
                    });
                }
                TASK => facts.task = Some(scalar(&map.next_value::<Box<RawValue>>()?)),
                ROLLOUT => facts.rollout = Some(scalar(&map.next_value::<Box<RawValue>>()?)),
                INSTANCE => facts.instance = Some(scalar(&map.next_value::<Box<RawValue>>()?)),
                AGENT => facts.agent = Some(agent(&map.next_value::<Box<RawValue>>()?)),
                _ if self.others => {
                    let value = map.next_value::<Box<RawValue>>()?;
                    facts.others.push((key.into_owned(), value));
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(facts)
    }
}

/// A member shown in one cell: a string as it says, anything else as
/// recorded.
pub fn scalar(raw: &RawValue) -> String {
    serde_json::from_str::<String>(raw.get()).unwrap_or_else(|_| raw.get().to_string())
}

/// NeMo Gym's `agent_ref` is `{"type": …, "name": …}`: its name says it.
fn agent(raw: &RawValue) -> String {
    #[derive(serde::Deserialize)]
    struct Named {
        name: String,
    }
    match serde_json::from_str::<Named>(raw.get()) {
        Ok(named) => named.name,
        Err(_) => scalar(raw),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rollout_line_says_its_reward_task_and_agent() {
        let line = br#"{"responses_create_params":{"input":[{"role":"user","content":"hi"}]},"response":{"output":[]},"agent_ref":{"type":"responses_api_agents","name":"pivot"},"reward":1.0,"uuid":"u-1","_ng_task_index":17,"_ng_rollout_index":2,"metadata":{"k":[1E5]}}"#;
        let facts = read(line, true).unwrap();
        assert_eq!(
            facts.reward,
            Some(Reward {
                text: "1.0".into(),
                value: Some(1.0)
            })
        );
        assert_eq!(facts.task.as_deref(), Some("17"));
        assert_eq!(facts.rollout.as_deref(), Some("2"));
        assert_eq!(facts.agent.as_deref(), Some("pivot"));
        assert_eq!(facts.instance, None);
        let others: Vec<String> = facts
            .others
            .iter()
            .map(|(k, v)| format!("{k}={}", v.get()))
            .collect();
        assert_eq!(others, ["uuid=\"u-1\"", "metadata={\"k\":[1E5]}"]);
        assert!(facts.any());
        // Without others: only the facts.
        assert!(read(line, false).unwrap().others.is_empty());
    }

    #[test]
    fn other_documents_say_less_or_nothing() {
        let null = read(br#"{"reward": null, "instance_id": "octo__w-1"}"#, true).unwrap();
        assert_eq!(
            null.reward,
            Some(Reward {
                text: "null".into(),
                value: None
            })
        );
        assert_eq!(null.instance.as_deref(), Some("octo__w-1"));
        assert!(!read(br#"{"messages": []}"#, false).unwrap().any());
        assert!(read(br#"[1, 2]"#, true).is_none());
        assert!(read(b"{not json", true).is_none());
    }
}
