//! The user's language: every string the app shows comes from `locales/<tag>.ftl`, Project
//! Fluent files compiled into the binary, so switching language at run time is only a
//! change of bundle.

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use serde::{Deserialize, Serialize};

/// A language Chuhe speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    /// Simplified Chinese (简体中文), the default.
    #[default]
    ZhCn,
    /// Traditional Chinese (繁體中文).
    ZhTw,
    /// English.
    En,
}

impl Language {
    /// Every language, in menu order.
    pub const ALL: [Language; 3] = [Language::ZhCn, Language::ZhTw, Language::En];

    /// The BCP 47 tag, which is also the name of the language's file in `locales/`.
    pub const fn tag(self) -> &'static str {
        match self {
            Language::ZhCn => "zh-CN",
            Language::ZhTw => "zh-TW",
            Language::En => "en",
        }
    }

    /// The Fluent source of the language's messages.
    pub const fn source(self) -> &'static str {
        match self {
            Language::ZhCn => include_str!("../../locales/zh-CN.ftl"),
            Language::ZhTw => include_str!("../../locales/zh-TW.ftl"),
            Language::En => include_str!("../../locales/en.ftl"),
        }
    }

    /// The language a POSIX locale such as `en_US.UTF-8`, `zh_TW.Big5` or `zh_CN` asks for;
    /// `None` for one Chuhe does not speak (or `C`).
    pub fn from_locale(locale: &str) -> Option<Language> {
        let name = locale.split(['.', '@']).next()?.to_ascii_lowercase();
        let (lang, region) = name
            .split_once(['_', '-'])
            .map_or((name.as_str(), ""), |(l, r)| (l, r));
        match (lang, region) {
            ("zh", "tw" | "hk" | "mo" | "hant") => Some(Language::ZhTw),
            ("zh", _) => Some(Language::ZhCn),
            ("en", _) => Some(Language::En),
            _ => None,
        }
    }

    /// The language the environment's locale asks for (`LC_ALL`, `LC_MESSAGES`, `LANG`, the
    /// first one set), or the default: what a first start speaks.
    pub fn from_environment() -> Language {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .and_then(|v| Language::from_locale(&v))
            .unwrap_or_default()
    }

    fn index(self) -> usize {
        match self {
            Language::ZhCn => 0,
            Language::ZhTw => 1,
            Language::En => 2,
        }
    }
}

/// The messages of every language, and which one is current.
pub struct I18n {
    language: Language,
    bundles: Vec<FluentBundle<FluentResource>>,
}

/// A message argument: text or a number.
pub type Arg<'a> = (&'a str, FluentValue<'a>);

impl I18n {
    /// All languages loaded, `language` current.
    pub fn new(language: Language) -> I18n {
        let bundles = Language::ALL.iter().map(|&l| bundle(l)).collect();
        I18n { language, bundles }
    }

    /// The current language.
    pub fn language(&self) -> Language {
        self.language
    }

    /// Switches language.
    pub fn set_language(&mut self, language: Language) {
        self.language = language;
    }

    /// The message `id` in the current language.
    pub fn tr(&self, id: &str) -> String {
        self.format(self.language, id, None)
    }

    /// The message `id` in the current language with its arguments.
    pub fn tr_args(&self, id: &str, args: &[Arg<'_>]) -> String {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(*name, value.clone());
        }
        self.format(self.language, id, Some(&fluent_args))
    }

    /// The message `id` in `language` (the language menu names each language in itself).
    pub fn tr_in(&self, language: Language, id: &str) -> String {
        self.format(language, id, None)
    }

    fn format(&self, language: Language, id: &str, args: Option<&FluentArgs<'_>>) -> String {
        let bundle = &self.bundles[language.index()];
        // A missing message shows its id rather than nothing; the locale tests make sure
        // no id is missing in any language.
        let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
            return id.to_owned();
        };
        let mut errors = Vec::new();
        bundle
            .format_pattern(pattern, args, &mut errors)
            .into_owned()
    }
}

/// The bundle of `language`'s messages.
fn bundle(language: Language) -> FluentBundle<FluentResource> {
    // The sources are part of the binary and checked by the tests: a syntax error in one
    // is a build defect, reported by `message_ids` in the tests; here the messages that did
    // parse are used.
    let resource = FluentResource::try_new(language.source().to_owned())
        .unwrap_or_else(|(partial, _errors)| partial);
    let tag = language
        .tag()
        .parse()
        .unwrap_or_else(|_| unic_langid::LanguageIdentifier::default());
    let mut bundle = FluentBundle::new(vec![tag]);
    // Unicode isolation marks around arguments are invisible in egui's layout and absent
    // from the shipped font.
    bundle.set_use_isolating(false);
    // Each id is defined once per file (the tests check), so adding cannot clash.
    let _ = bundle.add_resource(resource);
    bundle
}

/// The ids of `language`'s messages, or the syntax errors of its file.
pub fn message_ids(language: Language) -> Result<Vec<String>, String> {
    let resource = FluentResource::try_new(language.source().to_owned())
        .map_err(|(_, errors)| format!("{}: {errors:?}", language.tag()))?;
    Ok(resource
        .entries()
        .filter_map(|entry| match entry {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_owned()),
            _ => None,
        })
        .collect())
}

/// Every message of `language` formatted with sample arguments, for glyph checks.
pub fn all_messages(language: Language) -> Vec<String> {
    let i18n = I18n::new(language);
    let samples: Vec<Arg<'_>> = SAMPLE_ARGS
        .iter()
        .map(|&(name, value)| (name, FluentValue::from(value)))
        .collect();
    message_ids(language)
        .unwrap_or_default()
        .iter()
        .map(|id| i18n.tr_args(id, &samples))
        .collect()
}

/// The arguments messages take, with sample values.
const SAMPLE_ARGS: &[(&str, &str)] = &[
    ("reason", "x"),
    ("path", "a.pgn"),
    ("error", "e"),
    ("count", "3"),
    ("depth", "12"),
    ("nps", "100k"),
    ("done", "1"),
    ("total", "2"),
    ("name", "n"),
    ("winner", "w"),
];
