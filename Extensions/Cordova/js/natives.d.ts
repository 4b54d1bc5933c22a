// The natives of the `cordova` engine extension, written from its Swift declaration.
// Do not edit: change the declaration (the test suite checks that this file matches it).

interface JSBridgeInternal {
  cordovaPluginLifecycle(event: string): boolean;
  cordovaPluginLifecycleHeard(): void;
}
