/*
 * test_resp: the tests of test_resp_reply.c (reply encoding, reply
 * parsing, random bytes) and test_resp_input.c (the parser over a
 * libevent buffer), run by test_resp.c's main.
 */
#ifndef LUDUS_TEST_RESP_H
#define LUDUS_TEST_RESP_H

void	test_resp_encode_scalars(void **);
void	test_resp_encode_aggregates(void **);
void	test_resp_encode_appends(void **);
void	test_resp_parse_reply_resp2(void **);
void	test_resp_parse_reply_resp3(void **);
void	test_resp_parse_reply_pipelined(void **);
void	test_resp_parse_reply_malformed(void **);
void	test_resp_parse_reply_round_trip(void **);
void	test_resp_random_bytes(void **);
void	test_resp_input_two_chunks(void **);
void	test_resp_input_two_reads(void **);

#endif
