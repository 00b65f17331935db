// An app's tests import ShareKitTesting alone: the service layer's doubles
// (TestClock, FakeNetworkMonitor, LoopbackHTTPServer, StubHTTPTransport,
// InMemoryServiceLog) come with it, as ServiceKit comes with ShareKit.
@_exported public import ServiceKitTesting
