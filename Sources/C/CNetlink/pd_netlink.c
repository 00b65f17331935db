#include "pd_netlink.h"

#ifdef __linux__
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int pd_netlink_open(void) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
    if (fd < 0) return -errno;
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

int pd_netlink_wait(int netlink_fd, int wake_fd, int timeout_ms) {
    struct pollfd fds[2] = {{.fd = netlink_fd, .events = POLLIN}, {.fd = wake_fd, .events = POLLIN}};
    for (;;) {
        int ready = poll(fds, wake_fd >= 0 ? 2 : 1, timeout_ms);
        if (ready < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        if (ready == 0) return 0;
        if (wake_fd >= 0 && fds[1].revents != 0) return 2;
        if (fds[0].revents & (POLLERR | POLLNVAL)) return -EIO;
        return 1;
    }
}

int pd_netlink_drain(int netlink_fd) {
    char buffer[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
    int changes = 0;
    for (;;) {
        ssize_t length = recv(netlink_fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (length < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return changes;
            if (errno == ENOBUFS) {  // the kernel dropped messages: read the state again
                changes += 1;
                continue;
            }
            return -errno;
        }
        if (length == 0) return changes;
        for (struct nlmsghdr *message = (struct nlmsghdr *)buffer; NLMSG_OK(message, length);
             message = NLMSG_NEXT(message, length)) {
            switch (message->nlmsg_type) {
            case RTM_NEWLINK: case RTM_DELLINK:
            case RTM_NEWADDR: case RTM_DELADDR:
            case RTM_NEWROUTE: case RTM_DELROUTE:
                changes += 1;
                break;
            default:
                break;
            }
        }
    }
}

#else
#include <errno.h>
int pd_netlink_open(void) { return -ENOSYS; }
int pd_netlink_wait(int netlink_fd, int wake_fd, int timeout_ms) { (void)netlink_fd; (void)wake_fd; (void)timeout_ms; return -ENOSYS; }
int pd_netlink_drain(int netlink_fd) { (void)netlink_fd; return -ENOSYS; }
#endif
