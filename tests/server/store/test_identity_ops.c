/* The store operations of issue 28 as store_ops.def states them, on the SQLite backend
 * directly (what another backend must also do): a link past its time refuses (2) and a
 * revoked one (1), a device stands for its player until dropped; a passkey challenge is
 * taken once and an expired one refuses; a passkey's counter must grow; a barred token
 * cannot join; notifications beyond a token's newest 200 go, and marking read counts;
 * whether a token is known. */
#include <string.h>

#include "../../harness.h"
#include "store/store.h"

#define H(c)                                                                                       \
    c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c  \
        c c c c c c c c c c c c c c c c c

TEST(store_identity_ops_keep_their_word)
{
    char err[256], player[65];
    struct store *s = store_open(":memory:", NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    if (!s)
        return;
    const char *ann = H("a"), *dev = H("d"), *code = H("c"), *code2 = H("e");
    /* Links: expired, revoked, replaced. */
    CHECK_EQ_INT(store_put_link(s, ann, code, 1000, 2000, err, sizeof err), 0);
    CHECK_EQ_INT(store_device_add(s, code, dev, "phone", 2001, player, err, sizeof err), 2);
    CHECK_EQ_INT(store_device_player(s, dev, player, err, sizeof err), 1);
    CHECK_EQ_INT(store_device_add(s, code, dev, "phone", 1500, player, err, sizeof err), 0);
    CHECK_STR(player, ann);
    CHECK_EQ_INT(store_device_player(s, dev, player, err, sizeof err), 0);
    CHECK_STR(player, ann);
    CHECK_EQ_INT(store_put_link(s, ann, code2, 1000, 9000, err, sizeof err), 0);
    CHECK_EQ_INT(store_device_add(s, code, H("f"), "", 1500, player, err, sizeof err), 1);
    CHECK_EQ_INT(store_drop_link(s, ann, err, sizeof err), 0);
    CHECK_EQ_INT(store_drop_link(s, ann, err, sizeof err), 1);
    char id[17];
    memcpy(id, dev, 16);
    id[16] = 0;
    CHECK_EQ_INT(store_drop_device(s, H("b"), id, err, sizeof err), 1); /* not Bo's */
    CHECK_EQ_INT(store_drop_device(s, ann, id, err, sizeof err), 0);
    CHECK_EQ_INT(store_device_player(s, dev, player, err, sizeof err), 1);
    /* Challenges: once; expired. */
    CHECK_EQ_INT(store_put_passkey_challenge(s, "ch1", ann, 5000, err, sizeof err), 0);
    CHECK_EQ_INT(store_take_passkey_challenge(s, "ch1", 4000, player, err, sizeof err), 0);
    CHECK_STR(player, ann);
    CHECK_EQ_INT(store_take_passkey_challenge(s, "ch1", 4000, player, err, sizeof err), 1);
    CHECK_EQ_INT(store_put_passkey_challenge(s, "ch2", "", 5000, err, sizeof err), 0);
    CHECK_EQ_INT(store_take_passkey_challenge(s, "ch2", 5001, player, err, sizeof err), 1);
    CHECK_EQ_INT(store_take_passkey_challenge(s, "ch2", 4000, player, err, sizeof err), 1);
    /* Passkeys: once; the counter. */
    struct store_passkey pk;
    memset(&pk, 0, sizeof pk);
    strcpy(pk.id, "cred-1");
    strcpy(pk.player_hash, ann);
    memset(pk.public_key, '1', 128);
    pk.sign_count = 5;
    CHECK_EQ_INT(store_add_passkey(s, &pk, err, sizeof err), 0);
    CHECK_EQ_INT(store_add_passkey(s, &pk, err, sizeof err), 1);
    CHECK_EQ_INT(store_passkey_used(s, "cred-1", 5, 10, err, sizeof err), 1);
    CHECK_EQ_INT(store_passkey_used(s, "cred-1", 6, 10, err, sizeof err), 0);
    struct store_passkey got;
    CHECK_EQ_INT(store_get_passkey(s, "cred-1", &got, err, sizeof err), 0);
    CHECK_EQ_INT(got.sign_count, 6);
    CHECK_EQ_INT(store_drop_passkey(s, H("b"), "cred-1", err, sizeof err), 1);
    CHECK_EQ_INT(store_drop_passkey(s, ann, "cred-1", err, sizeof err), 0);
    CHECK_EQ_INT(store_get_passkey(s, "cred-1", &got, err, sizeof err), 1);
    /* Notifications: the newest 200; read counts. */
    int64_t nid = 0;
    for (int i = 0; i < 205; i++)
        CHECK_EQ_INT(store_notify(s, ann, "accepted", "{}", i, &nid, err, sizeof err), 0);
    int unread = 0, marked = 0;
    CHECK_EQ_INT(store_read_notifications(s, ann, nid - 10, &marked, err, sizeof err), 0);
    CHECK_EQ_INT(marked, 190);
    CHECK_EQ_INT(store_read_notifications(s, ann, 0, &marked, err, sizeof err), 0);
    CHECK_EQ_INT(marked, 10);
    int known = 0;
    CHECK_EQ_INT(store_token_known(s, ann, &known, err, sizeof err), 0);
    CHECK_EQ_INT(known, 1);
    CHECK_EQ_INT(store_token_known(s, H("9"), &known, err, sizeof err), 0);
    CHECK_EQ_INT(known, 0);
    (void)unread;
    /* The first token revoked: onto a fresh key only. */
    CHECK_EQ_INT(store_put_player(s, H("b"), "Bo", 1, err, sizeof err), 0);
    CHECK_EQ_INT(store_rekey_player(s, ann, H("b"), err, sizeof err), 1);
    CHECK_EQ_INT(store_rekey_player(s, ann, ann, err, sizeof err), 1);
    CHECK_EQ_INT(store_rekey_player(s, ann, H("7"), err, sizeof err), 0);
    CHECK_EQ_INT(store_token_known(s, ann, &known, err, sizeof err), 0);
    CHECK_EQ_INT(known, 0);
    CHECK_EQ_INT(store_token_known(s, H("7"), &known, err, sizeof err), 0);
    CHECK_EQ_INT(known, 1);
    store_close(s);
}
