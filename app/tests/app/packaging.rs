//! The Debian package's pieces agree: every asset `[package.metadata.deb]` lists exists
//! and goes where the desktop looks for it, the desktop entry starts the binary with the
//! file and names an icon that is installed, and every MIME type it claims is defined in
//! the shared-mime-info XML with its glob (and none is defined that it does not claim).

use chuhe::services::icon::{ICON_SIZES, render_icon};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn app_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(app_dir().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The `[source, destination, mode]` triples of the package's assets.
fn deb_assets() -> Vec<[String; 3]> {
    let manifest = read("Cargo.toml");
    let section = manifest
        .split("[package.metadata.deb]")
        .nth(1)
        .expect("app/Cargo.toml has [package.metadata.deb]");
    let list = section
        .split("assets = [")
        .nth(1)
        .expect("the package lists its assets");
    list.lines()
        .map(str::trim)
        .take_while(|line| *line != "]")
        .filter(|line| line.starts_with('['))
        .map(|line| {
            let quoted: Vec<String> = line
                .split('"')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect();
            quoted
                .try_into()
                .unwrap_or_else(|q| panic!("an asset is [source, destination, mode]: {q:?}"))
        })
        .collect()
}

/// The desktop entry's `key=value` lines.
fn desktop_entry() -> Vec<(String, String)> {
    read("packaging/chuhe.desktop")
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect()
}

fn entry_value<'a>(entry: &'a [(String, String)], key: &str) -> &'a str {
    entry
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("the desktop entry has no {key}"))
}

/// Each MIME type of the XML with its glob patterns and whether it has a magic rule.
fn mime_types() -> Vec<(String, Vec<String>, bool)> {
    let xml = read("packaging/chuhe-mime.xml");
    xml.split("<mime-type type=\"")
        .skip(1)
        .map(|block| {
            let (name, rest) = block.split_once('"').unwrap();
            let body = rest.split("</mime-type>").next().unwrap();
            let globs = body
                .split("<glob pattern=\"")
                .skip(1)
                .map(|g| g.split('"').next().unwrap().to_owned())
                .collect();
            (name.to_owned(), globs, body.contains("<magic"))
        })
        .collect()
}

#[test]
fn every_asset_exists_and_goes_where_the_desktop_looks() {
    let assets = deb_assets();
    assert!(!assets.is_empty());
    for [source, destination, mode] in &assets {
        assert!(
            mode.len() == 3 && mode.chars().all(|c| ('0'..='7').contains(&c)),
            "{source}: mode {mode}"
        );
        if source == "target/release/chuhe" {
            // Built by cargo deb; it is the app's binary.
            assert!(read("Cargo.toml").contains("[[bin]]\nname = \"chuhe\""));
            assert_eq!(destination, "usr/bin/");
            continue;
        }
        assert!(app_dir().join(source).is_file(), "{source} is missing");
    }
    let goes_to = |source: &str| -> &str {
        &assets
            .iter()
            .find(|[s, _, _]| s == source)
            .unwrap_or_else(|| panic!("{source} is not packaged"))[1]
    };
    assert_eq!(goes_to("target/release/chuhe"), "usr/bin/");
    assert_eq!(
        goes_to("packaging/chuhe.desktop"),
        "usr/share/applications/"
    );
    let mime = goes_to("packaging/chuhe-mime.xml");
    assert!(
        mime.starts_with("usr/share/mime/packages/") && mime.ends_with(".xml"),
        "{mime}"
    );
    for size in ICON_SIZES {
        let source = format!("packaging/icons/{size}x{size}/apps/chuhe.png");
        assert_eq!(
            goes_to(&source),
            format!("usr/share/icons/hicolor/{size}x{size}/apps/")
        );
        let icon = image::open(app_dir().join(&source)).unwrap().to_rgba8();
        assert_eq!(icon.dimensions(), (size, size), "{source}");
    }
}

#[test]
fn the_packaged_icons_are_the_ones_the_app_draws() {
    // Made by `cargo run -p chuhe --example make_icons`; redrawn here to catch stale ones.
    for size in [16, 256] {
        let packaged =
            image::open(app_dir().join(format!("packaging/icons/{size}x{size}/apps/chuhe.png")))
                .unwrap()
                .to_rgba8();
        let drawn = render_icon(size);
        let difference: u64 = packaged
            .as_raw()
            .iter()
            .zip(drawn.as_raw())
            .map(|(a, b)| u64::from(a.abs_diff(*b)))
            .sum();
        let mean = difference as f64 / packaged.as_raw().len() as f64;
        assert!(
            mean < 2.0,
            "the {size}px icon differs by {mean:.2} a channel"
        );
    }
}

#[test]
fn the_desktop_entry_opens_the_file_with_the_app_and_names_its_icon_and_types() {
    let entry = desktop_entry();
    assert_eq!(entry_value(&entry, "Type"), "Application");
    assert_eq!(entry_value(&entry, "Exec"), "chuhe %f");
    assert_eq!(entry_value(&entry, "Icon"), "chuhe");
    assert_eq!(entry_value(&entry, "Name"), "Chuhe");
    assert_eq!(entry_value(&entry, "Name[zh_CN]"), "楚河");
    assert_eq!(entry_value(&entry, "Name[zh_TW]"), "楚河");

    let claimed: BTreeSet<&str> = entry_value(&entry, "MimeType")
        .split(';')
        .filter(|t| !t.is_empty())
        .collect();
    let types = mime_types();
    let defined: BTreeSet<&str> = types.iter().map(|(name, _, _)| name.as_str()).collect();
    assert_eq!(
        claimed, defined,
        "the entry claims exactly the types the XML defines"
    );
    for (name, globs, magic) in &types {
        assert!(
            !globs.is_empty() || *magic,
            "{name} has no glob or magic to find its files by"
        );
    }
    // The game files the collections use, each found by its extension.
    let globs: BTreeSet<&str> = types
        .iter()
        .flat_map(|(_, globs, _)| globs.iter().map(String::as_str))
        .collect();
    for extension in ["pgn", "xqf", "cbr", "cbl", "cbf"] {
        assert!(
            globs.contains(format!("*.{extension}").as_str()),
            "no type has *.{extension}"
        );
    }
    assert!(
        types
            .iter()
            .any(|(name, _, magic)| name.contains("dhtmlxq") && *magic),
        "DhtmlXQ text is found by its tag"
    );
}

/// The desktop's own checker accepts the entry (CI installs it: Debian's
/// desktop-file-utils). Where it is missing the test says so and checks nothing more.
#[test]
fn the_desktop_entry_passes_desktop_file_validate() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/chuhe.desktop");
    match std::process::Command::new("desktop-file-validate")
        .arg(&path)
        .output()
    {
        Ok(out) => assert!(
            out.status.success() && out.stdout.is_empty() && out.stderr.is_empty(),
            "desktop-file-validate: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => {
            eprintln!("desktop-file-validate not run ({e}); apt-get install desktop-file-utils")
        }
    }
}

#[test]
fn the_readme_says_how_to_build_and_install_the_package() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let section = readme
        .split("## Install on Debian/Ubuntu")
        .nth(1)
        .expect("the README has an install section");
    for command in [
        "cargo install cargo-deb",
        "cargo deb -p chuhe",
        "apt install ./target/debian/",
    ] {
        assert!(
            section.contains(command),
            "the install section lacks {command}"
        );
    }
    // The two set-up commands stay as they were.
    assert!(readme.contains("cargo run --release     # start the app"));
    assert!(readme.contains("cargo test --workspace  # run every test"));
}
