/* region.h -- `visa region` (region.c): an operand's region over the register file. */
#ifndef VISA_TOOL_REGION_H
#define VISA_TOOL_REGION_H

#include "visa/visa.h"

/* argv: the arguments after "region"; returns the exit status. */
int cmd_region(int argc, char **argv);

#endif
