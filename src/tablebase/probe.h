/* The tables' insides that verify.c and the tests share with probe.c. */
#pragma once

#include "format.h"
#include "tablebase.h"

/* The records of signature (m, o), read on first use: 0, 1 absent, -1 corrupt. */
int tb_signature_records(struct tb_tables *t, int m, int o, const TbRecord **out, char *err,
                         size_t err_size);
/* The record of a position: 0, 1 absent, -1 corrupt. */
int tb_record_of(struct tb_tables *t, uint32_t own, uint32_t other, TbRecord *out, char *err,
                 size_t err_size);
/* The exact value with r plies before the count decides (1 <= r <= 40), by a search
 * over the quiet stretch guided by the records.  0, or -1 with a message. */
int tb_exact_value(struct tb_tables *t, uint32_t own, uint32_t other, int r, TbValue *out,
                   char *err, size_t err_size);

/* A search session: the distances it found are remembered for its next questions
 * (the consistency check asks about neighbours over and over). */
struct tb_session;
struct tb_session *tb_session_new(struct tb_tables *t);
void tb_session_free(struct tb_session *s);
int tb_session_value(struct tb_session *s, uint32_t own, uint32_t other, int r, TbValue *out,
                     char *err, size_t err_size);
