#ifndef PHOTODECK_PD_V4L2_H
#define PHOTODECK_PD_V4L2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What VIDIOC_QUERYCAP says about a device node.
typedef struct pd_v4l2_info {
    char driver[16];
    char card[32];
    char bus[32];
    uint32_t capabilities;     ///< The node's own capabilities (device_caps when set).
    int can_capture;           ///< 1 for a video capture node with read() or streaming I/O.
} pd_v4l2_info;

/// One captured frame; `data` is from malloc, freed with `pd_v4l2_free_frame`.
typedef struct pd_v4l2_frame {
    uint8_t *data;
    size_t size;
    uint32_t width;
    uint32_t height;
    uint32_t bytes_per_line;
    uint32_t fourcc;           ///< 'MJPG' or 'YUYV'.
} pd_v4l2_frame;

/// The fourcc codes this shim negotiates.
extern const uint32_t pd_v4l2_fourcc_mjpeg;
extern const uint32_t pd_v4l2_fourcc_yuyv;

/// Queries the node at `path`. Returns 0, or -1 with a message in `error`.
int pd_v4l2_query(const char *path, pd_v4l2_info *info, char *error, size_t error_capacity);

/// Captures one still from the node at `path` at about `width` x `height`
/// (the driver picks the nearest), preferring MJPEG, else YUYV, using
/// streaming I/O with mmap. The first `skip_frames` frames are dropped so
/// auto-exposure can settle; each wait times out after `timeout_ms`.
/// Returns 0, or -1 with a message in `error`.
int pd_v4l2_capture(const char *path, uint32_t width, uint32_t height, int skip_frames, int timeout_ms,
                    pd_v4l2_frame *frame, char *error, size_t error_capacity);

/// Frees a captured frame's data.
void pd_v4l2_free_frame(pd_v4l2_frame *frame);

#ifdef __cplusplus
}
#endif

#endif
