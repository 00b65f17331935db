#include "pd_notify.h"
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>

static void set_error(char *error, size_t length, const char *what, const DBusError *cause) {
    if (error == NULL || length == 0) return;
    if (cause != NULL && dbus_error_is_set(cause)) {
        snprintf(error, length, "%s: %s", what, cause->message ? cause->message : cause->name);
    } else {
        snprintf(error, length, "%s", what);
    }
}

/// A private connection to the session bus that does not exit the process
/// when the bus goes away (libdbus's default for shared connections).
static DBusConnection *open_session(char *error, size_t length) {
    DBusError cause;
    dbus_error_init(&cause);
    DBusConnection *connection = dbus_bus_get_private(DBUS_BUS_SESSION, &cause);
    if (connection == NULL) {
        set_error(error, length, "cannot connect to the session bus", &cause);
        dbus_error_free(&cause);
        return NULL;
    }
    dbus_connection_set_exit_on_disconnect(connection, FALSE);
    return connection;
}

static void close_session(DBusConnection *connection) {
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
}

int pd_notifications_available(char *error, size_t error_length) {
    DBusConnection *connection = open_session(error, error_length);
    if (connection == NULL) return 0;
    DBusError cause;
    dbus_error_init(&cause);
    dbus_bool_t owned = dbus_bus_name_has_owner(connection, "org.freedesktop.Notifications", &cause);
    if (dbus_error_is_set(&cause)) {
        set_error(error, error_length, "cannot ask the bus", &cause);
        owned = FALSE;
    } else if (!owned) {
        set_error(error, error_length, "no notification server owns org.freedesktop.Notifications", NULL);
    }
    dbus_error_free(&cause);
    close_session(connection);
    return owned ? 1 : 0;
}

int pd_notify(const char *app_name, const char *summary, const char *body, const char *icon, int32_t expire_timeout_ms,
              uint8_t urgency, int reply_timeout_ms, uint32_t *id_out, char *error, size_t error_length) {
    if (!dbus_validate_utf8(app_name, NULL) || !dbus_validate_utf8(summary, NULL) || !dbus_validate_utf8(body, NULL) ||
        !dbus_validate_utf8(icon, NULL)) {
        set_error(error, error_length, "a notification string is not valid UTF-8", NULL);
        return -1;
    }
    DBusConnection *connection = open_session(error, error_length);
    if (connection == NULL) return -1;
    int result = -1;
    DBusMessage *call = dbus_message_new_method_call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                     "org.freedesktop.Notifications", "Notify");
    DBusMessage *reply = NULL;
    DBusError cause;
    dbus_error_init(&cause);
    if (call == NULL) {
        set_error(error, error_length, "out of memory", NULL);
        goto done;
    }
    DBusMessageIter arguments, actions, hints, entry, variant;
    dbus_uint32_t replaces = 0;
    dbus_int32_t timeout = expire_timeout_ms;
    const char *urgency_key = "urgency";
    unsigned char urgency_value = urgency > 2 ? 2 : urgency;
    dbus_message_iter_init_append(call, &arguments);
    if (!dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &app_name) ||
        !dbus_message_iter_append_basic(&arguments, DBUS_TYPE_UINT32, &replaces) ||
        !dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &icon) ||
        !dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &summary) ||
        !dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &body) ||
        !dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "s", &actions) ||
        !dbus_message_iter_close_container(&arguments, &actions) ||
        !dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "{sv}", &hints) ||
        !dbus_message_iter_open_container(&hints, DBUS_TYPE_DICT_ENTRY, NULL, &entry) ||
        !dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &urgency_key) ||
        !dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "y", &variant) ||
        !dbus_message_iter_append_basic(&variant, DBUS_TYPE_BYTE, &urgency_value) ||
        !dbus_message_iter_close_container(&entry, &variant) || !dbus_message_iter_close_container(&hints, &entry) ||
        !dbus_message_iter_close_container(&arguments, &hints) ||
        !dbus_message_iter_append_basic(&arguments, DBUS_TYPE_INT32, &timeout)) {
        set_error(error, error_length, "out of memory", NULL);
        goto done;
    }
    reply = dbus_connection_send_with_reply_and_block(connection, call, reply_timeout_ms, &cause);
    if (reply == NULL) {
        set_error(error, error_length, "the notification server did not answer", &cause);
        goto done;
    }
    dbus_uint32_t id = 0;
    if (!dbus_message_get_args(reply, &cause, DBUS_TYPE_UINT32, &id, DBUS_TYPE_INVALID)) {
        set_error(error, error_length, "the notification server's answer is not an id", &cause);
        goto done;
    }
    *id_out = id;
    result = 0;
done:
    dbus_error_free(&cause);
    if (reply != NULL) dbus_message_unref(reply);
    if (call != NULL) dbus_message_unref(call);
    close_session(connection);
    return result;
}
