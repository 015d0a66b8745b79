//! A document given as Python data (a `dict` or `list`), converted without
//! JSON text on either side (docs/python.md#data-without-json-text): its
//! objects are walked into the library's tree, the payload strings lent as
//! a text's are ([`Gathered`]), and the output is built back as Python
//! objects. A payload the output holds as it came (the same string, or the
//! same data URL) is the input's own `str` object, not a copy.
//!
//! Only what JSON text would give the same value for is walked: exact
//! `dict` (with `str` keys), `list`, `str`, `int` (within 64 bits), finite
//! `float`, `bool` and `None`. Anything else (a tuple, a subclass, a big
//! int, NaN, a lone surrogate, nesting deeper than the parser allows) is
//! [`Refused`], and the caller takes the JSON text route, which keeps its
//! behaviour for them exactly.

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

use partkit::convert::document::{convert_data, converts_data, ConvertRequest, ConvertedValue};
use partkit::convert::ConvertError;
use partkit::internals::json::{Json, Out};
use partkit::internals::{pieces, Gathered, Held, Lending, Piece};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PySlice, PyString};
use serde_json::{Number, Value};

/// Deeper than serde_json parses text (128 levels), so such a document goes
/// the text route and fails as it always has.
const MAX_DEPTH: usize = 120;

/// The character every placeholder starts with (`json::lent`): a string
/// without one holds no payload.
const PLACEHOLDER: char = '\u{E000}';

/// This document is not walked: convert its JSON text instead.
#[derive(Debug)]
pub struct Refused;

/// A document walked into the library's borrowed tree (its strings owned),
/// its payloads lent.
pub struct Walked {
    tree: Json<'static>,
    lending: Lending,
    /// The input's payload strings: an output string that is one of them
    /// as it came is that very object.
    strings: Arc<Strings>,
}

/// How the conversion reads the payloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payloads {
    /// In the input's strings, taking the GIL for each read: for a
    /// conversion that keeps the GIL (one document), where that is free.
    InPlace,
    /// From copies made as the walk finds them: for conversions on worker
    /// threads (`convert_lines`), which would otherwise queue for the GIL
    /// behind each other and behind every other Python thread.
    Copied,
}

/// Walks `object` (a `dict` or `list`).
pub fn walk(object: &Bound<'_, PyAny>, payloads: Payloads) -> Result<Walked, Refused> {
    let mut walker = Walker::new(true, payloads);
    let mut tree = walker.json(object, None, 0)?;
    if walker.gathered.clash() {
        // A string of the document holds a placeholder character: lend
        // nothing, as the scan of a text does then.
        walker = Walker::new(false, payloads);
        tree = walker.json(object, None, 0)?;
    }
    let strings = Arc::new(Strings(walker.held));
    let held: Arc<dyn Held> = match payloads {
        Payloads::InPlace => strings.clone(),
        Payloads::Copied => Arc::new(Copies(walker.copies)),
    };
    Ok(Walked {
        tree,
        lending: walker.gathered.into_lending(held),
        strings,
    })
}

/// The payloads copied out of the input's strings.
#[derive(Debug)]
struct Copies(Vec<Box<str>>);

impl Held for Copies {
    fn with_payload(&self, index: usize, f: &mut dyn FnMut(Option<&str>)) {
        f(self.0.get(index).map(|copy| &**copy))
    }
}

/// The payloads, left in the input's strings: each string and where its
/// payload starts.
#[derive(Debug)]
struct Strings(Vec<(Py<PyString>, usize)>);

impl Strings {
    /// The string of payload `index`, when what comes before its payload
    /// is `header`.
    fn whole<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        header: &str,
    ) -> Option<Bound<'py, PyString>> {
        let (string, offset) = self.0.get(index)?;
        let string = string.bind(py);
        let text = string.to_str().ok()?;
        (text.get(..*offset) == Some(header)).then(|| string.clone())
    }

    /// Payload `index` as a str of its own: the string itself, or its part
    /// after the offset.
    fn cut<'py>(&self, py: Python<'py>, index: usize) -> Option<Bound<'py, PyString>> {
        let (string, offset) = self.0.get(index)?;
        let string = string.bind(py);
        if *offset == 0 {
            return Some(string.clone());
        }
        // The offset is in UTF-8 bytes and a slice in characters.
        let start = string.to_str().ok()?.get(..*offset)?.chars().count();
        let length = string.len().ok()?;
        let slice = PySlice::new(py, start as isize, length as isize, 1);
        string.get_item(slice).ok()?.cast_into::<PyString>().ok()
    }
}

impl Held for Strings {
    fn with_payload(&self, index: usize, f: &mut dyn FnMut(Option<&str>)) {
        let Some((string, offset)) = self.0.get(index) else {
            return f(None);
        };
        // Called holding the GIL ([`Payloads::InPlace`]), so taking it again
        // costs a counter. The str's UTF-8 is its own buffer for ASCII text,
        // and was made when the walk read it otherwise: this copies nothing.
        Python::attach(|py| match string.bind(py).to_str() {
            Ok(text) => f(text.get(*offset..)),
            Err(_) => f(None),
        })
    }
}

struct Walker {
    gathered: Gathered,
    held: Vec<(Py<PyString>, usize)>,
    /// The payloads' copies, when they are [`Payloads::Copied`].
    copies: Vec<Box<str>>,
    payloads: Payloads,
    lend: bool,
}

impl Walker {
    fn new(lend: bool, payloads: Payloads) -> Walker {
        Walker {
            gathered: Gathered::default(),
            held: Vec::new(),
            copies: Vec::new(),
            payloads,
            lend,
        }
    }

    fn json(
        &mut self,
        object: &Bound<'_, PyAny>,
        key: Option<&str>,
        depth: usize,
    ) -> Result<Json<'static>, Refused> {
        if let Ok(text) = object.cast_exact::<PyString>() {
            let str = text.to_str().map_err(|_| Refused)?;
            if !self.lend {
                return Ok(Json::String(Cow::Owned(str.to_owned())));
            }
            let string = match self.gathered.lend(str, key) {
                Some(loan) => {
                    if self.payloads == Payloads::Copied {
                        self.copies.push(str[loan.offset..].into());
                    }
                    self.held.push((text.clone().unbind(), loan.offset));
                    loan.placeholder
                }
                None => str.to_owned(),
            };
            return Ok(Json::String(Cow::Owned(string)));
        }
        if object.is_none() {
            return Ok(Json::Null);
        }
        if let Ok(flag) = object.cast_exact::<PyBool>() {
            return Ok(Json::Bool(flag.is_true()));
        }
        if object.is_exact_instance_of::<PyInt>() {
            if let Ok(number) = object.extract::<i64>() {
                return Ok(Json::Number(Cow::Owned(number.to_string())));
            }
            return object
                .extract::<u64>()
                .map(|number| Json::Number(Cow::Owned(number.to_string())))
                .map_err(|_| Refused);
        }
        if let Ok(number) = object.cast_exact::<PyFloat>() {
            if !number.value().is_finite() {
                return Err(Refused);
            }
            // Spelled as `json.dumps` spells it (`1e-05`, not `1e-5`): the
            // library keeps a number's spelling wherever it writes one.
            let spelled = number.repr().map_err(|_| Refused)?;
            let spelled = spelled.to_str().map_err(|_| Refused)?;
            // A finite float's repr is a JSON number; the parse makes sure.
            return match serde_json::from_str::<Number>(spelled) {
                Ok(_) => Ok(Json::Number(Cow::Owned(spelled.to_owned()))),
                Err(_) => Err(Refused),
            };
        }
        if depth >= MAX_DEPTH {
            return Err(Refused);
        }
        if let Ok(members) = object.cast_exact::<PyDict>() {
            // A dict's keys are distinct: no member to merge, as the parser
            // of a text must.
            let mut list = Vec::with_capacity(members.len());
            for (name, member) in members.iter() {
                let name = name.cast_exact::<PyString>().map_err(|_| Refused)?;
                let name = name.to_str().map_err(|_| Refused)?;
                self.gathered.key(name);
                let value = self.json(&member, Some(name), depth + 1)?;
                list.push((Cow::Owned(name.to_owned()), value));
            }
            return Ok(Json::Object(list));
        }
        if let Ok(items) = object.cast_exact::<PyList>() {
            let mut values = Vec::with_capacity(items.len());
            for item in items.iter() {
                values.push(self.json(&item, None, depth + 1)?);
            }
            return Ok(Json::Array(values));
        }
        Err(Refused)
    }
}

impl Walked {
    /// Whether the request can convert this value (else: the text route).
    pub fn fits(&self, request: &ConvertRequest) -> bool {
        converts_data(&self.tree, request)
    }

    /// Converts it. With [`Payloads::Copied`] no Python object is touched:
    /// call it with the GIL released (the input's objects stay here, and
    /// are released with the GIL held). With [`Payloads::InPlace`] each
    /// read of a payload takes the GIL: call it holding the GIL.
    pub fn convert(&self, request: &ConvertRequest) -> Result<ConvertedValue, ConvertError> {
        convert_data(&self.tree, self.lending.clone(), request)
    }

    /// The output `converted` (of this document) as Python objects.
    pub fn to_python<'py>(
        &self,
        py: Python<'py>,
        converted: &ConvertedValue,
    ) -> PyResult<Bound<'py, PyAny>> {
        Builder {
            py,
            lending: &self.lending,
            strings: &self.strings,
            keys: RefCell::new(Vec::new()),
        }
        .build_out(&converted.out)
    }
}

/// The most distinct keys [`Builder`] keeps to reuse: a shape's documents use
/// a few dozen names, over and over.
const KEYS_KEPT: usize = 48;

struct Builder<'a, 'v, 'py> {
    py: Python<'py>,
    lending: &'a Lending,
    strings: &'a Strings,
    /// Each key made so far, to be used again (as `json.loads` does): one
    /// `str` for every `"type"` of a document, made once and hashed once.
    keys: RefCell<Vec<(&'v str, Bound<'py, PyString>)>>,
}

impl<'v, 'py> Builder<'_, 'v, 'py> {
    /// A key of the output, as a `str` made before when it can be.
    fn key(&self, name: &'v str) -> Bound<'py, PyString> {
        if self.lending.is_lending() && name.contains(PLACEHOLDER) {
            // Never lent (only values are), but read as any string would be.
            return self.string(name);
        }
        let mut keys = self.keys.borrow_mut();
        if let Some((_, made)) = keys.iter().find(|(kept, _)| *kept == name) {
            return made.clone();
        }
        let made = PyString::new(self.py, name);
        if keys.len() < KEYS_KEPT {
            keys.push((name, made.clone()));
        }
        made
    }

    /// The writer's output tree, as [`Builder::build`] builds the `Value`
    /// it stands for.
    fn build_out(&self, out: &'v Out) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match out {
            Out::Null => py.None().into_bound(py),
            Out::Bool(flag) => PyBool::new(py, *flag).to_owned().into_any(),
            Out::Str(text) => self.string(text).into_any(),
            Out::Array(items) => {
                let list = PyList::empty(py);
                for item in items {
                    list.append(self.build_out(item)?)?;
                }
                list.into_any()
            }
            Out::Object(members) => {
                let dict = PyDict::new(py);
                for (name, member) in members.iter() {
                    dict.set_item(self.key(name), self.build_out(member)?)?;
                }
                dict.into_any()
            }
            Out::Value(value) => self.build(value)?,
        })
    }

    fn build(&self, value: &'v Value) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match value {
            Value::Null => py.None().into_bound(py),
            Value::Bool(flag) => PyBool::new(py, *flag).to_owned().into_any(),
            Value::Number(number) => match (number.as_i64(), number.as_u64()) {
                (Some(whole), _) => whole.into_pyobject(py)?.into_any(),
                (None, Some(whole)) => whole.into_pyobject(py)?.into_any(),
                _ => PyFloat::new(py, number.as_f64().unwrap_or(f64::NAN)).into_any(),
            },
            Value::String(text) => self.string(text).into_any(),
            Value::Array(items) => {
                let list = PyList::empty(py);
                for item in items {
                    list.append(self.build(item)?)?;
                }
                list.into_any()
            }
            Value::Object(members) => {
                let dict = PyDict::new(py);
                for (name, member) in members {
                    dict.set_item(self.key(name), self.build(member)?)?;
                }
                dict.into_any()
            }
        })
    }

    /// A string of the output: the input's own object where it is one of
    /// the input's payload strings as it came, its placeholders resolved
    /// where it holds any.
    fn string(&self, text: &str) -> Bound<'py, PyString> {
        if !self.lending.is_lending() || !text.contains(PLACEHOLDER) {
            return PyString::new(self.py, text);
        }
        let mut pieces = pieces(text);
        match (pieces.next(), pieces.next(), pieces.next()) {
            // A payload alone: its string as it came (a keyed payload), or
            // cut from it after a data URL's comma, which Python copies as
            // characters it knows to be ASCII, with no UTF-8 to decode.
            (Some(Piece::Lent(index)), None, _) => {
                if let Some(cut) = self.strings.cut(self.py, index) {
                    return cut;
                }
            }
            // A data URL with the payload's own header: its string as it came.
            (Some(Piece::Text(header)), Some(Piece::Lent(index)), None) => {
                if let Some(original) = self.strings.whole(self.py, index, header) {
                    return original;
                }
            }
            _ => {}
        }
        self.lending
            .with_resolved(text, |text| PyString::new(self.py, text))
    }
}
