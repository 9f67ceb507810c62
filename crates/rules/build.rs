//! Embeds the shipped variant files (listed in `assets/variants/manifest.ron`) into the crate, so
//! the CLI, the tests and the wasm build know every shipped variant by name without touching the
//! file system. The manifest stays the one list: adding a variant means adding a line there.
use std::{env, fs, path::PathBuf};

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let variants = manifest_dir.join("../../assets/variants");
    let manifest = variants.join("manifest.ron");
    println!("cargo::rerun-if-changed={}", manifest.display());
    let text = fs::read_to_string(&manifest).expect("assets/variants/manifest.ron is readable");
    // The manifest is `(variants: ["file.ron", ...])`; a tiny scan keeps build.rs free of deps.
    let files: Vec<String> = text
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .filter(|f| f.ends_with(".ron"))
        .collect();
    let mut out = String::from(
        "/// Shipped variant files: (file name, contents).\npub static SHIPPED: &[(&str, &str)] = &[\n",
    );
    for f in &files {
        let path = variants.join(f);
        println!("cargo::rerun-if-changed={}", path.display());
        assert!(path.exists(), "manifest lists {f}, which does not exist");
        out.push_str(&format!(
            "    ({f:?}, include_str!({:?})),\n",
            path.canonicalize().unwrap()
        ));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(env::var("OUT_DIR").unwrap()).join("shipped.rs");
    fs::write(dest, out).unwrap();
}
