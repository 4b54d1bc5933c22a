// The sanitizers' default-option hooks (defaults.c) are found by the sanitizer runtimes by name; nothing calls
// them from Swift, so this module has no API.
