set title {{title}}
set xlabel 'seconds since start (red, lower half: pod killed/terminating; green, upper half: endpoints updated)'
set ylabel 'latency (ms)'
set logscale y
set grid ytics
set key below
{{arrows}}
plot {{data}} using 1:2 with lines lw 2 title 'p50', \
  '' using 1:3 with lines lw 2 title 'p99', \
  '' using 1:4 with points pt 7 ps 0.5 title 'max'
