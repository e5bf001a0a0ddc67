/* hooks_sampler.c -- text syntax of the sampler family (placeholder until implemented). */
#include "text.h"

const txt_hook txt_hook_sampler = {NULL, NULL};
