#ifndef PHOTODECK_PD_SEI_H
#define PHOTODECK_PD_SEI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The codecs whose SEI pd_sei_strip reads.
enum pd_sei_codec { PD_SEI_H264 = 0, PD_SEI_HEVC = 1 };

/// Which user_data_unregistered SEI messages (payload type 5) go.
enum pd_sei_removal {
    /// Every one: vendor-private data of any kind (camcorder metadata, an
    /// encoder's settings); nothing a decoder needs.
    PD_SEI_REMOVE_ALL_UNREGISTERED = 0,
    /// Only the camcorder metadata of AVCHD (Sony, Panasonic): UUID
    /// 17ee8c60-f84d-11d9-8cd6-0800200c9a66 followed by "MDPM", which
    /// carries the position, the time and the camera.
    PD_SEI_REMOVE_MDPM = 1,
};

/// Removes user_data_unregistered SEI messages (as `removal` says) from one
/// H.264 or HEVC packet, in place: NAL units after Annex B start codes when
/// `length_size` is 0, else each after its big-endian length of
/// `length_size` (1 to 4) bytes, as in MP4. An SEI NAL unit that held one
/// is written again with the other messages (emulation prevention redone);
/// one left empty goes with its start code or length. Every other byte is
/// kept as it was.
///
/// Returns the packet's new size (at most `size`; `size` when nothing went),
/// and counts the messages removed in `*removed`, the MDPM ones among them
/// in `*mdpm`. Returns -1, the packet
/// unchanged, when it cannot be read: a length past the end, an SEI message
/// past its NAL unit, a length size out of range; or when the rewrite would
/// not fit where the packet was.
long pd_sei_strip(uint8_t *_Nonnull data, size_t size, int codec, int length_size, int removal, int *_Nonnull removed, int *_Nonnull mdpm);

#ifdef __cplusplus
}
#endif

#endif
