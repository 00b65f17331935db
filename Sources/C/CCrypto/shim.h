#ifndef PHOTODECK_CCRYPTO_SHIM_H
#define PHOTODECK_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/crypto.h>
#endif
