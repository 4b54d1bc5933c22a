import JSBridge
