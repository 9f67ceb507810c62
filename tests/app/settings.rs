use boardcraft::settings::{Language, Settings};

#[test]
fn locale_codes_choose_the_language() {
    assert_eq!(Language::from_locale("ru-RU"), Language::Russian);
    assert_eq!(Language::from_locale("ru_RU.UTF-8"), Language::Russian);
    assert_eq!(Language::from_locale("RU"), Language::Russian);
    assert_eq!(Language::from_locale("en-GB"), Language::English);
    assert_eq!(Language::from_locale("de"), Language::English);
    assert_eq!(Language::from_locale(""), Language::English);
}

#[test]
fn settings_files_with_missing_fields_keep_the_defaults() {
    let settings: Settings = ron::from_str("(coach: true)").expect("partial settings parse");
    assert!(settings.coach);
    assert_eq!(settings.language, Settings::default().language);
    assert_eq!(
        settings.animation_speed,
        Settings::default().animation_speed
    );
}

#[test]
fn graphics_are_automatic_until_chosen_and_kept_when_chosen() {
    use boardcraft::settings::Graphics;
    assert_eq!(Settings::default().graphics, Graphics::Auto);
    let chosen: Settings = ron::from_str("(graphics: Light)").expect("settings parse");
    assert_eq!(chosen.graphics, Graphics::Light);
    let text = ron::to_string(&chosen).unwrap();
    assert_eq!(ron::from_str::<Settings>(&text).unwrap(), chosen);
    // Automatic: light on a renderer that runs on the processor, full on a GPU.
    assert!(Graphics::Auto.light(true) && !Graphics::Auto.light(false));
    assert!(!Graphics::Full.light(true) && Graphics::Light.light(false));
}
