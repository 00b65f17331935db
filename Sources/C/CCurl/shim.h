// libcurl for ServiceKit's CurlTransport. curl_easy_setopt and
// curl_easy_getinfo are variadic, which Swift cannot call: these typed
// wrappers pass each option with the type libcurl reads for it.
#include <curl/curl.h>

typedef size_t (*pd_curl_data_function)(char *data, size_t size, size_t count, void *context);
typedef int (*pd_curl_progress_function)(void *context, curl_off_t download_total, curl_off_t download_now,
                                         curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode pd_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pd_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pd_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pd_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pd_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

static inline CURLcode pd_curl_set_data_function(CURL *handle, CURLoption option, pd_curl_data_function function) {
    return curl_easy_setopt(handle, option, function);
}

static inline CURLcode pd_curl_set_progress_function(CURL *handle, pd_curl_progress_function function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

static inline CURLcode pd_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode pd_curl_get_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode pd_curl_get_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode pd_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// The result of a finished transfer (CURLMsg's union, named).
static inline CURLcode pd_curl_message_result(const CURLMsg *message) { return message->data.result; }
