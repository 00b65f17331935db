// netwatch: prints the network path (one word a line) now and at each
// change, from LinuxNetworkMonitor, until it is killed. The network
// monitor tests run it inside a private network namespace.
//
//   netwatch [--poll]

import Foundation
import ServiceKit

#if canImport(Glibc)
    import Glibc
#endif

let mode: LinuxNetworkMonitor.Mode = CommandLine.arguments.contains("--poll") ? .polling(.milliseconds(50)) : .automatic
for await path in LinuxNetworkMonitor(mode: mode).pathUpdates() {
    print(path.rawValue)
    fflush(nil)
}
