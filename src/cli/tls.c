/*
 * The CLI's TLS client (see tls.h), over OpenSSL.  The handshake runs on
 * the blocking socket; after it the socket is non-blocking and waits are
 * poll()s, so a read can also be a look that does not wait (the REPL and
 * watch poll the socket and read only what has come).
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "cli/tls.h"
#include "util/util.h"

struct cli_tls {
	SSL_CTX		*ctx;
	SSL		*ssl;
	int		 fd;
};

/* The reason of the oldest error OpenSSL queued. */
static const char *
reason(void)
{
	const char	*r = ERR_reason_error_string(ERR_peek_error());

	return r != NULL ? r : "unknown error";
}

/* Why the last call of OpenSSL failed, from SSL_get_error()'s code. */
static void
tls_why(int code, char *err, size_t errlen)
{
	if (code == SSL_ERROR_ZERO_RETURN)
		snprintf(err, errlen, "closed by the server");
	else if (ERR_peek_error() != 0)
		snprintf(err, errlen, "TLS: %s", reason());
	else if (code == SSL_ERROR_SYSCALL && errno != 0)
		snprintf(err, errlen, "%s", strerror(errno));
	else
		snprintf(err, errlen, "TLS: error %d", code);
	ERR_clear_error();
}

/*
 * SIGPIPE, from a write to a server that has gone, is held while OpenSSL
 * writes and taken back after: a lost server is an error here, as
 * MSG_NOSIGNAL makes it on the plain socket, not the end of the program.
 */
struct pipe_guard {
	sigset_t	 old;
	int		 was_pending;	/* not ours to take */
};

static void
pipe_hold(struct pipe_guard *g)
{
	sigset_t	 set, pending;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	sigpending(&pending);
	g->was_pending = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, &g->old);
}

static void
pipe_release(struct pipe_guard *g)
{
	static const struct timespec	 zero = { 0, 0 };
	sigset_t			 set;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	if (!g->was_pending)
		while (sigtimedwait(&set, NULL, &zero) == -1 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

static SSL_CTX *
ctx_new(const struct cli_tls_opts *o, char *err, size_t errlen)
{
	SSL_CTX	*ctx;
	int	 ok;

	if ((ctx = SSL_CTX_new(TLS_client_method())) == NULL)
		goto fail;
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	/* A server that closes without close_notify has closed, not
	 * failed: every reply is framed, a cut one is never taken. */
	SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	ok = o->cacert != NULL ?
	    SSL_CTX_load_verify_locations(ctx, o->cacert, NULL) :
	    SSL_CTX_set_default_verify_paths(ctx);
	if (ok != 1) {
		snprintf(err, errlen, "--cacert %s: %s", o->cacert != NULL ?
		    o->cacert : "(the system's)", reason());
		goto fail;
	}
	if (o->cert == NULL)
		return ctx;
	if (SSL_CTX_use_certificate_chain_file(ctx, o->cert) != 1 ||
	    SSL_CTX_use_PrivateKey_file(ctx, o->key != NULL ? o->key : o->cert,
	    SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
		snprintf(err, errlen, "--cert %s, --key %s: %s", o->cert,
		    o->key != NULL ? o->key : o->cert, reason());
		goto fail;
	}
	return ctx;
fail:
	if (ctx == NULL)
		snprintf(err, errlen, "TLS: %s", reason());
	ERR_clear_error();
	SSL_CTX_free(ctx);
	return NULL;
}

/* The certificate must name host: as an address if it is one (no
 * SNI then), else as a DNS name, which is also sent as SNI. */
static int
want_host(SSL *ssl, const char *host)
{
	unsigned char	 a[sizeof(struct in6_addr)];

	if (inet_pton(AF_INET, host, a) == 1 ||
	    inet_pton(AF_INET6, host, a) == 1)
		return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl),
		    host) == 1 ? 0 : -1;
	if (SSL_set1_host(ssl, host) != 1 ||
	    SSL_set_tlsext_host_name(ssl, host) != 1)
		return -1;
	return 0;
}

struct cli_tls *
cli_tls_connect(int fd, const char *host, const struct cli_tls_opts *o,
    char *err, size_t errlen)
{
	struct cli_tls		*t = xcalloc(1, sizeof *t);
	struct pipe_guard	 g;
	long			 v;
	int			 r;

	t->fd = fd;
	if ((t->ctx = ctx_new(o, err, errlen)) == NULL)
		goto fail;
	if ((t->ssl = SSL_new(t->ctx)) == NULL || SSL_set_fd(t->ssl, fd) != 1 ||
	    want_host(t->ssl, host) == -1) {
		tls_why(SSL_ERROR_SSL, err, errlen);
		goto fail;
	}
	ERR_clear_error();
	pipe_hold(&g);
	r = SSL_connect(t->ssl);
	pipe_release(&g);
	if (r != 1) {
		v = SSL_get_verify_result(t->ssl);
		if (v != X509_V_OK)
			snprintf(err, errlen, "TLS: the server's certificate "
			    "is refused: %s", X509_verify_cert_error_string(v));
		else
			tls_why(SSL_get_error(t->ssl, r), err, errlen);
		ERR_clear_error();
		goto fail;
	}
	/* From now on a wait is a poll(), so a read may also not wait. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == -1) {
		snprintf(err, errlen, "%s", strerror(errno));
		goto fail;
	}
	return t;
fail:
	SSL_free(t->ssl);
	SSL_CTX_free(t->ctx);
	free(t);
	return NULL;
}

/* Waits until the socket can do what OpenSSL asked for: 0 or -1. */
static int
wait_for(int fd, int code)
{
	struct pollfd	 pfd;
	int		 r;

	pfd.fd = fd;
	pfd.events = code == SSL_ERROR_WANT_WRITE ? POLLOUT : POLLIN;
	pfd.revents = 0;
	while ((r = poll(&pfd, 1, -1)) == -1 && errno == EINTR)
		;
	return r == -1 ? -1 : 0;
}

int
cli_tls_write(struct cli_tls *t, const char *p, size_t len, char *err,
    size_t errlen)
{
	struct pipe_guard	 g;
	int			 n, code, chunk;

	while (len > 0) {
		chunk = len > INT_MAX ? INT_MAX : (int)len;
		ERR_clear_error();
		pipe_hold(&g);
		n = SSL_write(t->ssl, p, chunk);
		pipe_release(&g);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		code = SSL_get_error(t->ssl, n);
		if ((code == SSL_ERROR_WANT_WRITE ||
		    code == SSL_ERROR_WANT_READ) && wait_for(t->fd, code) == 0)
			continue;
		tls_why(code, err, errlen);
		return -1;
	}
	return 0;
}

ssize_t
cli_tls_read(struct cli_tls *t, char *buf, size_t len, int nowait,
    char *err, size_t errlen)
{
	int	 n, code;

	for (;;) {
		ERR_clear_error();
		n = SSL_read(t->ssl, buf, len > INT_MAX ? INT_MAX : (int)len);
		if (n > 0)
			return n;
		code = SSL_get_error(t->ssl, n);
		if (code == SSL_ERROR_WANT_READ ||
		    code == SSL_ERROR_WANT_WRITE) {
			if (nowait)
				return 0;
			if (wait_for(t->fd, code) == 0)
				continue;
		}
		tls_why(code, err, errlen);
		return -1;
	}
}

size_t
cli_tls_pending(struct cli_tls *t)
{
	int	 n = SSL_pending(t->ssl);

	return n > 0 ? (size_t)n : 0;
}

void
cli_tls_close(struct cli_tls *t)
{
	struct pipe_guard	 g;

	if (t == NULL)
		return;
	/* One try, not waiting for the server's answer. */
	pipe_hold(&g);
	(void)SSL_shutdown(t->ssl);
	pipe_release(&g);
	ERR_clear_error();
	SSL_free(t->ssl);
	SSL_CTX_free(t->ctx);
	free(t);
}
