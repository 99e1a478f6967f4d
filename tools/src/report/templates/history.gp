set title {{title}}
set xlabel 'run on main (oldest first; dashed red: change points, tailgate history detect)'
set ylabel 'latency (ms)'
set logscale y
set grid ytics
set key below
{{arrows}}
plot {{data}} using 1:2 with linespoints lw 2 pt 7 ps 0.4 title 'p99', \
  '' using 1:3 with linespoints lw 2 pt 7 ps 0.4 dt 2 title 'p99.99'
