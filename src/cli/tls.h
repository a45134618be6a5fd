/*
 * The ludus CLI's TLS (--tls): a client over a connected socket that
 * checks the server's certificate against a CA (--cacert, else the
 * system's) and the host name or address it was asked to reach, and can
 * show a certificate of its own (--cert, --key) to a ludusd with
 * tls-auth-clients.
 */
#ifndef LUDUS_CLI_TLS_H
#define LUDUS_CLI_TLS_H

#include <stddef.h>
#include <sys/types.h>

/* What --tls, --cacert, --cert and --key asked for. */
struct cli_tls_opts {
	int		 enabled;
	const char	*cacert;	/* NULL: the system's CAs */
	const char	*cert;		/* NULL: no client certificate */
	const char	*key;		/* NULL: in cert's file */
};

struct cli_tls;

/*
 * The handshake over fd, connected to host (a name or an address, which
 * the certificate must name).  NULL with err set (the certificate
 * refused, the CA file unreadable, ...); fd stays the caller's either way
 * and must outlive the result.
 */
struct cli_tls	*cli_tls_connect(int fd, const char *host,
		    const struct cli_tls_opts *, char *err, size_t errlen);
/* Writes all of p: 0, or -1 with err set. */
int		 cli_tls_write(struct cli_tls *, const char *p, size_t len,
		    char *err, size_t errlen);
/*
 * Reads what has arrived, at most len bytes, waiting for some unless
 * nowait: the count, 0 when nowait and nothing is there, -1 with err set
 * (the server closed: "closed by the server").
 */
ssize_t		 cli_tls_read(struct cli_tls *, char *buf, size_t len,
		    int nowait, char *err, size_t errlen);
/* Bytes already decrypted and waiting: read them before polling. */
size_t		 cli_tls_pending(struct cli_tls *);
/* Says goodbye (close_notify) and frees; the socket stays open. */
void		 cli_tls_close(struct cli_tls *);

#endif /* LUDUS_CLI_TLS_H */
