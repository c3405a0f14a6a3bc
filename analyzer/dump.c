/* placeholder: being written */
#include "cli.h"
int cmd_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return V2X_EXIT_RUNTIME;
}
