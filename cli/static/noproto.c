// SPDX-License-Identifier: MIT
/*
 * noproto.c - linked only into the static builds (make static-arm64,
 * static-armv7).  libnl's IP protocol name helpers call getprotobyname()
 * and getprotobynumber(), which pull glibc's whole NSS machinery (and its
 * dlopen) into a static binary, and would need glibc's shared libraries at
 * run time anyway: absent on Android.  wmark's taskstats netlink never
 * asks for a protocol name, so these answer "unknown", as an NSS lookup
 * with no databases does.
 */
#include <netdb.h>
#include <stddef.h>

struct protoent *getprotobyname(const char *name)
{
	(void)name;
	return NULL;
}

struct protoent *getprotobynumber(int proto)
{
	(void)proto;
	return NULL;
}

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		struct addrinfo **res)
{
	(void)node;
	(void)service;
	(void)hints;
	*res = NULL;
	return EAI_FAIL;
}

int getnameinfo(const struct sockaddr *sa, socklen_t salen, char *host, socklen_t hostlen,
		char *serv, socklen_t servlen, int flags)
{
	(void)sa;
	(void)salen;
	(void)host;
	(void)hostlen;
	(void)serv;
	(void)servlen;
	(void)flags;
	return EAI_FAIL;
}
