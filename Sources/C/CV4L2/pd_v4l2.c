// The hardware side of PhotoDeck's Linux camera: V4L2 ioctls (variadic,
// so not callable from Swift) and mmap streaming, kept small.

#include "pd_v4l2.h"

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

const uint32_t pd_v4l2_fourcc_mjpeg = V4L2_PIX_FMT_MJPEG;
const uint32_t pd_v4l2_fourcc_yuyv = V4L2_PIX_FMT_YUYV;

static int pd_ioctl(int fd, unsigned long request, void *argument) {
    int result;
    do { result = ioctl(fd, request, argument); } while (result == -1 && errno == EINTR);
    return result;
}

static int pd_fail(char *error, size_t capacity, const char *what) {
    snprintf(error, capacity, "%s: %s", what, strerror(errno));
    return -1;
}

int pd_v4l2_query(const char *path, pd_v4l2_info *info, char *error, size_t error_capacity) {
    memset(info, 0, sizeof *info);
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return pd_fail(error, error_capacity, "open");
    struct v4l2_capability capability;
    memset(&capability, 0, sizeof capability);
    if (pd_ioctl(fd, VIDIOC_QUERYCAP, &capability) != 0) {
        int status = pd_fail(error, error_capacity, "VIDIOC_QUERYCAP");
        close(fd);
        return status;
    }
    close(fd);
    memcpy(info->driver, capability.driver, sizeof info->driver - 1);
    memcpy(info->card, capability.card, sizeof info->card - 1);
    memcpy(info->bus, capability.bus_info, sizeof info->bus - 1);
    uint32_t caps = (capability.capabilities & V4L2_CAP_DEVICE_CAPS) ? capability.device_caps : capability.capabilities;
    info->capabilities = caps;
    info->can_capture = (caps & V4L2_CAP_VIDEO_CAPTURE) && (caps & (V4L2_CAP_STREAMING | V4L2_CAP_READWRITE));
    return 0;
}

int pd_v4l2_capture(const char *path, uint32_t width, uint32_t height, int skip_frames, int timeout_ms,
                    pd_v4l2_frame *frame, char *error, size_t error_capacity) {
    memset(frame, 0, sizeof *frame);
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return pd_fail(error, error_capacity, "open");

    struct v4l2_format format;
    const uint32_t wanted[2] = {V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_YUYV};
    int negotiated = 0;
    for (int i = 0; i < 2 && !negotiated; i++) {
        memset(&format, 0, sizeof format);
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        format.fmt.pix.width = width;
        format.fmt.pix.height = height;
        format.fmt.pix.pixelformat = wanted[i];
        format.fmt.pix.field = V4L2_FIELD_NONE;
        if (pd_ioctl(fd, VIDIOC_S_FMT, &format) == 0 && format.fmt.pix.pixelformat == wanted[i]) negotiated = 1;
    }
    if (!negotiated) {
        snprintf(error, error_capacity, "the device offers neither MJPEG nor YUYV");
        close(fd);
        return -1;
    }

    struct v4l2_requestbuffers request;
    memset(&request, 0, sizeof request);
    request.count = 2;
    request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    request.memory = V4L2_MEMORY_MMAP;
    if (pd_ioctl(fd, VIDIOC_REQBUFS, &request) != 0 || request.count < 1) {
        int status = pd_fail(error, error_capacity, "VIDIOC_REQBUFS");
        close(fd);
        return status;
    }
    void *maps[2] = {MAP_FAILED, MAP_FAILED};
    size_t lengths[2] = {0, 0};
    unsigned count = request.count > 2 ? 2 : request.count;
    int status = -1;
    for (unsigned i = 0; i < count; i++) {
        struct v4l2_buffer buffer;
        memset(&buffer, 0, sizeof buffer);
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        buffer.memory = V4L2_MEMORY_MMAP;
        buffer.index = i;
        if (pd_ioctl(fd, VIDIOC_QUERYBUF, &buffer) != 0) { pd_fail(error, error_capacity, "VIDIOC_QUERYBUF"); goto done; }
        lengths[i] = buffer.length;
        maps[i] = mmap(NULL, buffer.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, buffer.m.offset);
        if (maps[i] == MAP_FAILED) { pd_fail(error, error_capacity, "mmap"); goto done; }
        if (pd_ioctl(fd, VIDIOC_QBUF, &buffer) != 0) { pd_fail(error, error_capacity, "VIDIOC_QBUF"); goto done; }
    }
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (pd_ioctl(fd, VIDIOC_STREAMON, &type) != 0) { pd_fail(error, error_capacity, "VIDIOC_STREAMON"); goto done; }
    for (int captured = 0; captured <= skip_frames; captured++) {
        struct pollfd waiter = {fd, POLLIN, 0};
        int ready = poll(&waiter, 1, timeout_ms);
        if (ready <= 0) {
            if (ready == 0) snprintf(error, error_capacity, "no frame within %d ms", timeout_ms);
            else pd_fail(error, error_capacity, "poll");
            goto stop;
        }
        struct v4l2_buffer buffer;
        memset(&buffer, 0, sizeof buffer);
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        buffer.memory = V4L2_MEMORY_MMAP;
        if (pd_ioctl(fd, VIDIOC_DQBUF, &buffer) != 0) { pd_fail(error, error_capacity, "VIDIOC_DQBUF"); goto stop; }
        if (captured == skip_frames) {
            if (buffer.index >= count || buffer.bytesused > lengths[buffer.index]) {
                snprintf(error, error_capacity, "the driver returned an invalid buffer");
                goto stop;
            }
            frame->data = (uint8_t *)malloc(buffer.bytesused);
            if (frame->data == NULL) { snprintf(error, error_capacity, "out of memory"); goto stop; }
            memcpy(frame->data, maps[buffer.index], buffer.bytesused);
            frame->size = buffer.bytesused;
            frame->width = format.fmt.pix.width;
            frame->height = format.fmt.pix.height;
            frame->bytes_per_line = format.fmt.pix.bytesperline;
            frame->fourcc = format.fmt.pix.pixelformat;
            status = 0;
        } else if (pd_ioctl(fd, VIDIOC_QBUF, &buffer) != 0) {
            pd_fail(error, error_capacity, "VIDIOC_QBUF");
            goto stop;
        }
    }
stop:
    pd_ioctl(fd, VIDIOC_STREAMOFF, &type);
done:
    for (unsigned i = 0; i < count; i++) if (maps[i] != MAP_FAILED) munmap(maps[i], lengths[i]);
    close(fd);
    return status;
}

void pd_v4l2_free_frame(pd_v4l2_frame *frame) {
    free(frame->data);
    frame->data = NULL;
    frame->size = 0;
}

#else
const uint32_t pd_v4l2_fourcc_mjpeg = 0x47504A4D;
const uint32_t pd_v4l2_fourcc_yuyv = 0x56595559;
int pd_v4l2_query(const char *path, pd_v4l2_info *info, char *error, size_t error_capacity) {
    (void)path; (void)info; (void)error_capacity;
    error[0] = '\0';
    return -1;
}
int pd_v4l2_capture(const char *path, uint32_t width, uint32_t height, int skip_frames, int timeout_ms,
                    pd_v4l2_frame *frame, char *error, size_t error_capacity) {
    (void)path; (void)width; (void)height; (void)skip_frames; (void)timeout_ms; (void)frame; (void)error_capacity;
    error[0] = '\0';
    return -1;
}
void pd_v4l2_free_frame(pd_v4l2_frame *frame) { (void)frame; }
#endif
