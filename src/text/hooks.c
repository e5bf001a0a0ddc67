/* hooks.c -- the table of family text hooks, indexed by the ops.def hook column (TH_*), built
** from hooks.def. */
#include "text.h"

const txt_hook *const txt_hooks[TH__COUNT] = {
#define TXT_HOOK(H, object) [TH_##H] = &object,
#include "hooks.def"
#undef TXT_HOOK
};
