// Random play on nneonneo/2048-ai's tables: each step finds the legal
// moves, plays one at random, and spawns a tile, as the engine's
// BenchmarkRandomStep does. Built against an unmodified copy of 2048.cpp.
#define main nn_main
#include "2048.cpp"
#undef main
#include <chrono>
int main() {
    init_tables();
    srand48(1);
    long steps = 0;
    auto start = std::chrono::steady_clock::now();
    for (int game = 0; game < 20000; game++) {
        board_t board = initial_board();
        while (true) {
            int legal[4], n = 0;
            for (int d = 0; d < 4; d++) if (execute_move(d, board) != board) legal[n++] = d;
            if (n == 0) break;
            board = execute_move(legal[unif_random(n)], board);
            board = insert_tile_rand(board, draw_tile());
            steps++;
        }
    }
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
    printf("nneonneo: %ld steps, %.1f ns/step\n", steps, (double)ns / steps);
}
