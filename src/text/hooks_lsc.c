/* hooks_lsc.c -- text syntax of the lsc family (placeholder until implemented). */
#include "text.h"

const txt_hook txt_hook_lsc = {NULL, NULL};
