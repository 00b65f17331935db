#ifndef PD_NETLINK_H
#define PD_NETLINK_H

/// Opens a NETLINK_ROUTE socket subscribed to link, address and route
/// changes (IPv4 and IPv6). Returns the descriptor, or -errno (for example
/// where a sandbox forbids netlink).
int pd_netlink_open(void);

/// Waits until the netlink socket has messages, `wake_fd` is readable (or
/// hung up), or `timeout_ms` passes (-1: no timeout). Returns 1 for
/// messages, 2 for a wake-up, 0 for a timeout, -errno on failure.
int pd_netlink_wait(int netlink_fd, int wake_fd, int timeout_ms);

/// Reads every message waiting on the socket without blocking and returns
/// how many were link, address or route changes (a lost burst, ENOBUFS,
/// counts as one: the state must be read again), or -errno on failure.
/// Messages are walked with the kernel's own NLMSG_OK/NLMSG_NEXT bounds.
int pd_netlink_drain(int netlink_fd);

#endif
