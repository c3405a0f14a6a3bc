/* placeholder: being written */
typedef int v2x_placeholder_j2735;
