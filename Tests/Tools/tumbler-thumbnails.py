#!/usr/bin/python3
"""Asks tumbler (Xfce's thumbnail service, as Thunar does) for thumbnails.

Usage: dbus-run-session -- tumbler-thumbnails.py FLAVOR URI MIME [URI MIME ...]

Queues the files with org.freedesktop.thumbnails.Thumbnailer1 (the
freedesktop thumbnail D-Bus API), waits for its Finished signal (60 s at
most) and prints one JSON object: the URIs tumbler reported Ready, the
errors it reported, and each URI's own form from GLib (`Gio.File.get_uri`
of its path), so a test can compare PhotoDeck's URI with the desktop's.
The thumbnails go where $XDG_CACHE_HOME says.
"""
import json
import sys
import urllib.parse

from gi.repository import Gio, GLib

NAME = "org.freedesktop.thumbnails.Thumbnailer1"
PATH = "/org/freedesktop/thumbnails/Thumbnailer1"


def main():
    flavor = sys.argv[1]
    pairs = sys.argv[2:]
    uris, mimes = pairs[0::2], pairs[1::2]
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    loop = GLib.MainLoop()
    state = {"handle": None, "ready": [], "errors": [], "finished": False}

    def on_signal(connection, sender, path, interface, signal, parameters):
        values = parameters.unpack()
        if state["handle"] is not None and values[0] != state["handle"]:
            return
        if signal == "Ready":
            state["ready"] += list(values[1])
        elif signal == "Error":
            state["errors"].append({"uris": list(values[1]), "code": values[2], "message": values[3]})
        elif signal == "Finished":
            state["finished"] = True
            loop.quit()

    # Subscribed before the request, so no signal can be missed.
    bus.signal_subscribe(None, NAME, None, PATH, None, Gio.DBusSignalFlags.NONE, on_signal)
    reply = bus.call_sync(NAME, PATH, NAME, "Queue", GLib.Variant("(asasssu)", (uris, mimes, flavor, "default", 0)),
                          GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, 60000, None)
    state["handle"] = reply.unpack()[0]
    GLib.timeout_add_seconds(60, loop.quit)
    if not state["finished"]:
        loop.run()
    glib_uris = [Gio.File.new_for_path(urllib.parse.unquote(uri[len("file://"):])).get_uri() for uri in uris]
    print(json.dumps({"finished": state["finished"], "ready": state["ready"], "errors": state["errors"], "glibURIs": glib_uris}))


if __name__ == "__main__":
    main()
