/* hooks_dataport.c -- text syntax of the dataport family (placeholder until implemented). */
#include "text.h"

const txt_hook txt_hook_dataport = {NULL, NULL};
