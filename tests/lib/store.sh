# The store of the shell tests, sourced by them: SQLite files, or the
# suite's PostgreSQL database when LUDUS_TEST_STORE holds its URI
# (tests/lib/pgcluster run starts a throwaway cluster and sets it).

# store_for FILE: sets STORE_OPT and STORE_ARG, the flag and value that
# name the store (--db FILE, or --store URI with the database emptied
# first, as a fresh file is: no games, no tickets, no ratings, the bots'
# accounts alone).
store_for() {
	case ${LUDUS_TEST_STORE:-} in
	postgresql://* | postgres://*)
		PGOPTIONS=--client-min-messages=warning psql -q \
		    "$LUDUS_TEST_STORE" -c "TRUNCATE games, players, tokens,
		    jumps, history, meta, ludus_nodes, game_accounts, tickets,
		    ratings; DELETE FROM accounts WHERE key IS NOT NULL" \
		    >/dev/null 2>&1
		STORE_OPT=--store
		STORE_ARG=$LUDUS_TEST_STORE
		;;
	*)
		STORE_OPT=--db
		STORE_ARG=$1
		;;
	esac
}
