//! A small event stream over quick-xml for the XML inside DOCX, ODT and EPUB: names as
//! written (`w:p`), attribute values and text with entities resolved, a UTF-8 BOM
//! dropped, end-name checks off (sloppy files still read), errors as one-line reasons.

use quick_xml::events::Event;

use super::html::decode_entities;

/// One XML event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ev {
    /// A start tag `<name attr="v">` (or an empty element, with `empty` set).
    Start {
        /// Qualified name as written.
        name: String,
        /// Attributes: qualified key, decoded value.
        attrs: Vec<(String, String)>,
        /// `<name/>`: no matching end event follows.
        empty: bool,
    },
    /// An end tag.
    End(String),
    /// Character data (entities resolved).
    Text(String),
}

/// Calls `f` for every event of `xml`; an XML error stops the walk with its position.
pub fn events(xml: &str, mut f: impl FnMut(Ev)) -> Result<(), String> {
    let xml = xml.strip_prefix('\u{feff}').unwrap_or(xml);
    let mut r = quick_xml::Reader::from_str(xml);
    r.config_mut().check_end_names = false;
    loop {
        let ev = r.read_event().map_err(|e| format!("XML error at byte {}: {e}", r.error_position()))?;
        match ev {
            Event::Start(e) => f(Ev::Start { name: e.name().as_ref().to_string(), attrs: attrs(&e), empty: false }),
            Event::Empty(e) => f(Ev::Start { name: e.name().as_ref().to_string(), attrs: attrs(&e), empty: true }),
            Event::End(e) => f(Ev::End(e.name().as_ref().to_string())),
            Event::Text(t) => f(Ev::Text(t.xml10_content().into_owned())),
            Event::CData(t) => f(Ev::Text(t.xml10_content().into_owned())),
            Event::GeneralRef(g) => {
                let s = match g.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => {
                        let name = g.xml10_content();
                        match quick_xml::escape::resolve_predefined_entity(&name) {
                            Some(v) => v.to_string(),
                            None => decode_entities(&format!("&{name};")).into_owned(),
                        }
                    }
                };
                f(Ev::Text(s));
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

fn attrs(e: &quick_xml::events::BytesStart) -> Vec<(String, String)> {
    e.attributes().with_checks(false).flatten().map(|a| (a.key.as_ref().to_string(), decode_entities(&a.value).into_owned())).collect()
}

/// The value of attribute `key` (qualified name) in `attrs`.
pub fn get<'a>(attrs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}
