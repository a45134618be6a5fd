/*
 * ludus export, import (archive.c) and backup (backup.c), on the store
 * named by --db or --store (uri; NULL: none was given).  The exit status:
 * 0, 1 when it failed (said why on stderr, nothing changed), 2 for a
 * usage error.
 */
#ifndef LUDUS_CLI_ARCHIVE_H
#define LUDUS_CLI_ARCHIVE_H

int	cli_export(const char *uri, int argc, char **argv);
int	cli_import(const char *uri, int argc, char **argv);
int	cli_backup(const char *uri, int argc, char **argv);

#endif /* LUDUS_CLI_ARCHIVE_H */
