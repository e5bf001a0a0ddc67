/* saxpy.cl -- y = a * x + y, one work-item per element (`make demo` runs it through IGC). */
kernel void saxpy(float a, global const float *x, global float *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
    if (i == 0)
        printf("work-item 0 of %d: y[0] = %.2f\n", (int)get_global_size(0), y[0]);
}
