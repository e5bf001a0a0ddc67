/* hooks.c -- the table of family text hooks, indexed by the ops.def hook column (TH_*). */
#include "text.h"

const txt_hook *const txt_hooks[TH__COUNT] = {
    [TH_NONE] = NULL,
    [TH_LABEL] = &txt_hook_label,
    [TH_CALL] = &txt_hook_call,
    [TH_DEBUG] = &txt_hook_debug,
    [TH_SYNC] = &txt_hook_sync,
    [TH_SEND] = &txt_hook_send,
    [TH_DPAS] = &txt_hook_dpas,
    [TH_DATAPORT] = &txt_hook_dataport,
    [TH_SAMPLER] = &txt_hook_sampler,
    [TH_LSC] = &txt_hook_lsc,
};
