/*
 * TLS on the RESP port, the way Redis does it: a port of its own
 * (tls-port) beside the plain one, and on HTTP's (https-port, whose
 * evhttp asks tls_bufferevent_new() for each connection's bufferevent,
 * with no socket yet: http_conn.c), the server's certificate and key
 * (tls-cert-file, tls-key-file), and client certificates checked against
 * tls-ca-cert-file when tls-auth-clients asks for them.  TLS 1.2 at
 * least.  Through OpenSSL and libevent's bufferevent_openssl: a TLS
 * connection is an ordinary connection of conn.c whose bufferevent
 * encrypts (conn.c's transport, CONN_TLS).
 *
 * The context (SSL_CTX) is built once at start and again on SIGHUP.  A
 * new one is used only if it loads whole; each connection keeps a
 * reference to the one it was accepted with, so a reload drops no
 * connection: the next accepted one uses the new certificate, the old
 * ones keep theirs.  A reload that fails keeps the old context and says
 * why in the log.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "net/log.h"
#include "net/ludusd.h"
#include "util/util.h"

/* What a handshake that failed may leave unread: read, then closed. */
#define DRAIN_MAX	(64 * 1024)

struct tls {
	SSL_CTX		*ctx;		/* for the next accepted client */
	uint64_t	 reloads;	/* contexts made after the first */
};

/* The words of one OpenSSL error: its reason, or the system's. */
static const char *
err_text(unsigned long e, char *buf, size_t len)
{
	const char	*r;

	if (ERR_SYSTEM_ERROR(e))
		snprintf(buf, len, "%s", strerror(ERR_GET_REASON(e)));
	else if ((r = ERR_reason_error_string(e)) != NULL)
		snprintf(buf, len, "%s", r);
	else
		ERR_error_string_n(e, buf, len);
	return buf;
}

/* The reason of the first error OpenSSL queued (the cause), and an empty
 * queue after. */
static const char *
ssl_why(char *buf, size_t len)
{
	unsigned long	 e = ERR_get_error();

	if (e == 0)
		snprintf(buf, len, "%s", strerror(errno));
	else
		err_text(e, buf, len);
	ERR_clear_error();
	return buf;
}

static int
ctx_load(SSL_CTX *ctx, const struct config *cfg, char *err, size_t errlen)
{
	char	 why[256];

	if (SSL_CTX_use_certificate_chain_file(ctx, cfg->tls_cert_file) != 1) {
		snprintf(err, errlen, "tls-cert-file %s: %s",
		    cfg->tls_cert_file, ssl_why(why, sizeof why));
		return -1;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, cfg->tls_key_file,
	    SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
		snprintf(err, errlen, "tls-key-file %s: %s", cfg->tls_key_file,
		    ssl_why(why, sizeof why));
		return -1;
	}
	if (cfg->tls_ca_cert_file[0] == '\0')
		return 0;
	if (SSL_CTX_load_verify_locations(ctx, cfg->tls_ca_cert_file,
	    NULL) != 1) {
		snprintf(err, errlen, "tls-ca-cert-file %s: %s",
		    cfg->tls_ca_cert_file, ssl_why(why, sizeof why));
		return -1;
	}
	/* The CAs a client is told it may show a certificate of. */
	SSL_CTX_set_client_CA_list(ctx,
	    SSL_load_client_CA_file(cfg->tls_ca_cert_file));
	ERR_clear_error();
	return 0;
}

/* A server context from the files the configuration names, or NULL with
 * err set. */
static SSL_CTX *
ctx_new(const struct config *cfg, char *err, size_t errlen)
{
	static const unsigned char sid[] = "ludusd";
	SSL_CTX	*ctx;
	char	 why[256];
	int	 mode = SSL_VERIFY_NONE;

	if ((ctx = SSL_CTX_new(TLS_server_method())) == NULL) {
		snprintf(err, errlen, "%s", ssl_why(why, sizeof why));
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	/*
	 * No renegotiation (a client could make us redo handshakes), no
	 * compression (CRIME); the server's cipher order.  A client that
	 * closes its socket without TLS's close_notify (most do) has ended
	 * its input, not failed: RESP frames every request, so a cut can
	 * only drop a request that was not whole, which never runs.
	 */
	SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION |
	    SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE |
	    SSL_OP_IGNORE_UNEXPECTED_EOF);
	/* An idle connection gives its read and write buffers back: ludusd
	 * is built to hold many idle clients. */
	SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
	/* Resumed sessions must be of this server (and of its checks). */
	SSL_CTX_set_session_id_context(ctx, sid, sizeof sid - 1);
	if (cfg->tls_auth_clients == TLS_AUTH_YES)
		mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
	else if (cfg->tls_auth_clients == TLS_AUTH_OPTIONAL)
		mode = SSL_VERIFY_PEER;
	SSL_CTX_set_verify(ctx, mode, NULL);
	if (ctx_load(ctx, cfg, err, errlen) == -1) {
		SSL_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

int
tls_init(struct server *srv)
{
	char	 err[512];
	SSL_CTX	*ctx;

	if (srv->cfg->tls_port == TLS_PORT_OFF &&
	    srv->cfg->https_port == TLS_PORT_OFF)
		return 0;
	if ((ctx = ctx_new(srv->cfg, err, sizeof err)) == NULL) {
		log_warning("TLS: %s", err);
		return -1;
	}
	srv->tls = xcalloc(1, sizeof *srv->tls);
	srv->tls->ctx = ctx;
	return 0;
}

void
tls_free(struct server *srv)
{
	if (srv->tls == NULL)
		return;
	SSL_CTX_free(srv->tls->ctx);
	free(srv->tls);
	srv->tls = NULL;
}

void
tls_reload(struct server *srv)
{
	char	 err[512];
	SSL_CTX	*ctx;

	if (srv->tls == NULL)
		return;
	if ((ctx = ctx_new(srv->cfg, err, sizeof err)) == NULL) {
		log_warning("SIGHUP: TLS certificates not reloaded, the old "
		    "ones stay in use: %s", err);
		return;
	}
	/* Connections hold references of their own to the old one. */
	SSL_CTX_free(srv->tls->ctx);
	srv->tls->ctx = ctx;
	srv->tls->reloads++;
	log_notice("SIGHUP: TLS certificates reloaded");
}

struct bufferevent *
tls_bufferevent_new(struct server *srv, evutil_socket_t fd)
{
	struct bufferevent	*bev;
	SSL			*ssl;

	if ((ssl = SSL_new(srv->tls->ctx)) == NULL) {
		ERR_clear_error();
		return NULL;
	}
	/* With BEV_OPT_CLOSE_ON_FREE the bufferevent frees ssl, even when
	 * it cannot be made. */
	bev = bufferevent_openssl_socket_new(srv->base, fd, ssl,
	    BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE);
	if (bev == NULL)
		return NULL;
	/* The same for a close that OpenSSL sees as a socket error (see
	 * SSL_OP_IGNORE_UNEXPECTED_EOF above). */
	bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
	return bev;
}

void
tls_close_notify(struct bufferevent *bev)
{
	SSL	*ssl = bufferevent_openssl_get_ssl(bev);

	/* Our side is done: what the client reads next is a clean end. */
	if (ssl != NULL)
		(void)SSL_shutdown(ssl);
	ERR_clear_error();
}

void
tls_connected(struct bufferevent *bev, const char *addr)
{
	SSL	*ssl = bufferevent_openssl_get_ssl(bev);
	X509	*peer;
	char	 subject[256] = "no client certificate";

	if (ssl == NULL || !log_enabled(LL_DEBUG))
		return;
	if ((peer = SSL_get1_peer_certificate(ssl)) != NULL) {
		X509_NAME_oneline(X509_get_subject_name(peer), subject,
		    sizeof subject);
		X509_free(peer);
	}
	log_debug("%s: TLS: %s, %s, %s", addr, SSL_get_version(ssl),
	    SSL_get_cipher_name(ssl), subject);
}

/* The reasons OpenSSL gives when the first bytes are not TLS at all. */
static int
not_tls(unsigned long e)
{
	int	 r = ERR_GET_REASON(e);

	return ERR_GET_LIB(e) == ERR_LIB_SSL &&
	    (r == SSL_R_WRONG_VERSION_NUMBER || r == SSL_R_HTTP_REQUEST ||
	    r == SSL_R_HTTPS_PROXY_REQUEST || r == SSL_R_UNKNOWN_PROTOCOL ||
	    r == SSL_R_PACKET_LENGTH_TOO_LONG);
}

/*
 * Reads what the client sent and OpenSSL left unread, and sends our FIN:
 * closing a socket with unread input makes the kernel send a reset,
 * which a client shows as an error rather than a closed connection.
 */
static void
drain(evutil_socket_t fd)
{
	char	 buf[4096];
	size_t	 total = 0;
	ssize_t	 n;

	while (total < DRAIN_MAX &&
	    (n = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0)
		total += (size_t)n;
	(void)shutdown(fd, SHUT_WR);
}

/* Why a client's certificate was refused, after OpenSSL's reason. */
static const char *
verify_why(struct bufferevent *bev, unsigned long e)
{
	SSL	*ssl = bufferevent_openssl_get_ssl(bev);
	long	 v;

	if (ERR_GET_LIB(e) != ERR_LIB_SSL ||
	    ERR_GET_REASON(e) != SSL_R_CERTIFICATE_VERIFY_FAILED ||
	    ssl == NULL || (v = SSL_get_verify_result(ssl)) == X509_V_OK)
		return "";
	return X509_verify_cert_error_string(v);
}

void
tls_failed(struct bufferevent *bev, const char *addr, int handshake)
{
	unsigned long	 e, first = 0;
	const char	*more;
	char		 buf[256];

	/*
	 * The bufferevent keeps the last errors, newest first: the oldest is
	 * the cause.  (It keeps SSL_get_error()'s small codes there too,
	 * which name no library: those are passed over.)
	 */
	while ((e = bufferevent_get_openssl_error(bev)) != 0)
		if (ERR_GET_LIB(e) != 0)
			first = e;
	if (first == 0) {
		log_debug("%s: %s", addr, evutil_socket_error_to_string(
		    EVUTIL_SOCKET_ERROR()));
	} else {
		more = verify_why(bev, first);
		log_info("%s: TLS %s: %s%s%s%s", addr, handshake ?
		    "handshake failed" : "error", err_text(first, buf,
		    sizeof buf), *more != '\0' ? ": " : "", more,
		    handshake && not_tls(first) ?
		    " (a plain client on the TLS port?)" : "");
	}
	ERR_clear_error();
	if (handshake)
		drain(bufferevent_getfd(bev));
}
