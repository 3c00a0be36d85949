//! `chuhe-engine library --json`: the whole built-in library as one JSON object, a key
//! per part.

use crate::USAGE;
use chuhe_core::library::{openings, patterns};

pub fn command(args: &[String]) -> Result<(), String> {
    if args != ["--json"] {
        return Err(format!("library takes --json\n{USAGE}"));
    }
    let mut doc = serde_json::Map::new();
    doc.insert("openings".to_owned(), openings::to_json()?);
    let patterns = patterns::export().map_err(|e| e.to_string())?;
    doc.insert(
        "patterns".to_owned(),
        serde_json::to_value(patterns).map_err(|e| e.to_string())?,
    );
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    println!("{text}");
    Ok(())
}
