// What an app composes a share button from is one import: the service
// layer's types in ShareKit's own API (ProviderID, Credential, RateLimit,
// NetworkMonitor, ServiceClock, TextCounting) come with ShareKit, as NIO
// re-exports NIOCore.
@_exported public import ServiceKit
