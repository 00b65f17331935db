#ifndef PHOTODECK_NOTIFY_H
#define PHOTODECK_NOTIFY_H
#include <stddef.h>
#include <stdint.h>

/// Sends one org.freedesktop.Notifications.Notify call on the session bus
/// (a private connection, opened and closed here; blocks up to
/// `reply_timeout_ms` for the answer). Returns 0 and the notification's id
/// in `*id_out`, or -1 with a message in `error` (NUL-terminated, at most
/// `error_length` bytes). Strings must be valid UTF-8.
int pd_notify(const char *app_name, const char *summary, const char *body, const char *icon, int32_t expire_timeout_ms,
              uint8_t urgency, int reply_timeout_ms, uint32_t *id_out, char *error, size_t error_length);

/// Whether a notification server owns org.freedesktop.Notifications on the session bus.
int pd_notifications_available(char *error, size_t error_length);
#endif
