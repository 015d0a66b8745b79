//! What values read from a document carry along to whatever writes or checks
//! them: the payloads the document lends ([`Lending`]) and its spellings of
//! numbers ([`Spellings`]).

use std::sync::Arc;

use serde_json::Value;

use super::lent::Lending;
use super::Spellings;

/// The document values were read from, as what writes or checks them needs
/// it: placeholders seen through ([`Reading::lending`]) and numbers spelled as
/// the document spells them ([`Reading::text_of`]). The default lends
/// nothing and spells numbers as serde_json does. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    lending: Lending,
    spellings: Arc<Spellings>,
}

impl Reading {
    /// Values read from a document that lends `lending` and spells numbers
    /// as `spellings` say.
    pub fn new(lending: Lending, spellings: Spellings) -> Reading {
        Reading {
            lending,
            spellings: Arc::new(spellings),
        }
    }

    /// Values whose placeholders `lending` sees through, numbers spelled as
    /// serde_json spells them.
    pub fn lent(lending: Lending) -> Reading {
        Reading {
            lending,
            ..Reading::default()
        }
    }

    /// What the document lends.
    pub fn lending(&self) -> &Lending {
        &self.lending
    }

    /// How the document spells its numbers.
    pub fn spellings(&self) -> &Spellings {
        &self.spellings
    }

    /// Compact JSON text of a value read from the document, its numbers
    /// spelled as the document spells them.
    pub fn text_of(&self, value: &Value) -> String {
        self.spellings.text_of(value)
    }
}
