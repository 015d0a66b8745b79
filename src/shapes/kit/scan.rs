//! Helpers the shapes' media recognizers (`scan`) share: picking a block's
//! reader or kind by its `type`, and the ways a payload is spelled (a URL, a
//! data URL, base64, an upload's id) that mean the same in every shape.

use crate::contract::scan::{ext_type, push, push_data_url, string, Found, Payload, Verdict};
use crate::dataurl;
use crate::json::Json;

/// Reads one kind of media block into `found`.
pub(crate) type Reader = for<'j> fn(&'j Json<'j>, &str, &mut Vec<Found<'j>>) -> Verdict;

/// Hands `value` to the reader listed for its `type`; a block of any other
/// type is not media of this shape.
pub(crate) fn by_type<'j>(
    value: &'j Json<'j>,
    pointer: &str,
    found: &mut Vec<Found<'j>>,
    readers: &[(&str, Reader)],
) -> Verdict {
    let Some(kind) = string(value, "type") else {
        return Verdict::Other;
    };
    match readers.iter().find(|(name, _)| *name == kind) {
        Some((_, read)) => read(value, pointer, found),
        None => Verdict::Other,
    }
}

/// The kind listed for `value`'s `type`, if any.
pub(crate) fn kind_of(value: &Json<'_>, kinds: &[(&str, &'static str)]) -> Option<&'static str> {
    let kind = string(value, "type")?;
    kinds
        .iter()
        .find(|(name, _)| *name == kind)
        .map(|(_, kind)| *kind)
}

/// Where a media block stands and what it is called, for the ways its
/// payload is spelled below.
pub(crate) struct Block<'p, 'j> {
    pointer: &'p str,
    kind: &'static str,
    name: Option<&'j str>,
}

impl<'p, 'j> Block<'p, 'j> {
    pub(crate) fn new(pointer: &'p str, kind: &'static str, name: Option<&'j str>) -> Self {
        Block {
            pointer,
            kind,
            name,
        }
    }

    /// A URL: a data URL is read for what it holds, any other is a link.
    pub(crate) fn url(&self, url: &'j str, found: &mut Vec<Found<'j>>) -> Verdict {
        if dataurl::is_data_url(url) {
            return self.data_url(url, found);
        }
        self.link(url, found)
    }

    /// A link, its type guessed from its extension.
    pub(crate) fn link(&self, url: &'j str, found: &mut Vec<Found<'j>>) -> Verdict {
        self.push(ext_type(url), Payload::Url(url), found)
    }

    /// File data: a data URL is read for what it holds, anything else is base64.
    pub(crate) fn data(&self, data: &'j str, found: &mut Vec<Found<'j>>) -> Verdict {
        if dataurl::is_data_url(data) {
            return self.data_url(data, found);
        }
        self.push(None, Payload::Base64(data), found)
    }

    /// The last resort of OpenAI's parts: a reference to an upload
    /// (`file_id`) in `holder`, or nothing to find.
    pub(crate) fn file_id(&self, holder: &'j Json<'j>, found: &mut Vec<Found<'j>>) -> Verdict {
        match string(holder, "file_id") {
            Some(id) => self.push(None, Payload::Url(id), found),
            None => Verdict::Empty,
        }
    }

    fn data_url(&self, url: &'j str, found: &mut Vec<Found<'j>>) -> Verdict {
        push_data_url(url, self.pointer.to_string(), self.kind, self.name, found);
        Verdict::Media
    }

    fn push(
        &self,
        guessed: Option<String>,
        payload: Payload<'j>,
        found: &mut Vec<Found<'j>>,
    ) -> Verdict {
        push(
            found,
            self.pointer,
            self.kind,
            None,
            guessed,
            payload,
            self.name,
        )
    }
}
