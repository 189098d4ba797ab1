# Run build/bin/store_bench; its header comment lists the options (bench/README.md).
add_executable(store_bench store_bench.cc)
target_link_libraries(store_bench PRIVATE gemini_reference)
