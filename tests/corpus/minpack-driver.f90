! minpack-driver.f90 -- the corpus workload for MINPACK: R rounds of
! fitting a six-parameter model (two decaying exponentials and a sine) to
! M generated noisy samples from several starting points, with finite
! differences (lmdif1), an analytic Jacobian (lmder1) and one Jacobian
! row at a time (lmstr1), then solving Broyden's tridiagonal system of
! N equations with finite differences (hybrd1) and with its Jacobian
! (hybrj1).  Prints the residual norms, so that a run can be checked.
!   minpackdriver M N R
module fitdata
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer :: npts
  real(dp), allocatable :: tt(:), yy(:)
contains
  pure real(dp) function model(a, t)
    real(dp), intent(in) :: a(6), t
    model = a(1) * exp(-a(2) * t) + a(3) * exp(-a(4) * t) + a(5) * sin(a(6) * t)
  end function model

  pure subroutine gradient(a, t, g)
    real(dp), intent(in) :: a(6), t
    real(dp), intent(out) :: g(6)
    g(1) = exp(-a(2) * t)
    g(2) = -a(1) * t * exp(-a(2) * t)
    g(3) = exp(-a(4) * t)
    g(4) = -a(3) * t * exp(-a(4) * t)
    g(5) = sin(a(6) * t)
    g(6) = a(5) * t * cos(a(6) * t)
  end subroutine gradient

  subroutine make_data(m)
    integer, intent(in) :: m
    real(dp), parameter :: truth(6) = [4.0_dp, 1.3_dp, 2.5_dp, 0.25_dp, 0.6_dp, 2.1_dp]
    integer :: i
    integer(8) :: seed
    npts = m
    allocate(tt(m), yy(m))
    seed = 20240501_8
    do i = 1, m
      seed = modulo(seed * 1103515245_8 + 12345_8, 2147483648_8)
      tt(i) = 10.0_dp * (i - 1) / (m - 1)
      yy(i) = model(truth, tt(i)) + 0.01_dp * (real(seed, dp) / 2147483648.0_dp - 0.5_dp)
    end do
  end subroutine make_data
end module fitdata

! The residuals for lmdif1.
subroutine fit_fcn(m, n, x, fvec, iflag)
  use fitdata
  implicit none
  integer, intent(in) :: m, n, iflag
  real(dp), intent(in) :: x(n)
  real(dp), intent(out) :: fvec(m)
  integer :: i
  if (iflag < 0) return
  do i = 1, m
    fvec(i) = model(x, tt(i)) - yy(i)
  end do
end subroutine fit_fcn

! The residuals or the Jacobian, for lmder1.
subroutine fit_jac(m, n, x, fvec, fjac, ldfjac, iflag)
  use fitdata
  implicit none
  integer, intent(in) :: m, n, ldfjac, iflag
  real(dp), intent(in) :: x(n)
  real(dp), intent(inout) :: fvec(m), fjac(ldfjac, n)
  integer :: i
  real(dp) :: g(6)
  if (iflag == 1) then
    call fit_fcn(m, n, x, fvec, iflag)
  else if (iflag == 2) then
    do i = 1, m
      call gradient(x, tt(i), g)
      fjac(i, 1:n) = g(1:n)
    end do
  end if
end subroutine fit_jac

! The residuals, or row iflag - 1 of the Jacobian, for lmstr1.
subroutine fit_row(m, n, x, fvec, fjrow, iflag)
  use fitdata
  implicit none
  integer, intent(in) :: m, n, iflag
  real(dp), intent(in) :: x(n)
  real(dp), intent(inout) :: fvec(m), fjrow(n)
  real(dp) :: g(6)
  if (iflag == 1) then
    call fit_fcn(m, n, x, fvec, iflag)
  else if (iflag >= 2) then
    call gradient(x, tt(iflag - 1), g)
    fjrow(1:n) = g(1:n)
  end if
end subroutine fit_row

! Broyden's tridiagonal function, for hybrd1.
subroutine broyden(n, x, fvec, iflag)
  implicit none
  integer, intent(in) :: n, iflag
  double precision, intent(in) :: x(n)
  double precision, intent(out) :: fvec(n)
  integer :: k
  double precision :: left, right
  if (iflag < 0) return
  do k = 1, n
    left = 0.0d0
    right = 0.0d0
    if (k > 1) left = x(k - 1)
    if (k < n) right = x(k + 1)
    fvec(k) = (3.0d0 - 2.0d0 * x(k)) * x(k) - left - 2.0d0 * right + 1.0d0
  end do
end subroutine broyden

! Broyden's tridiagonal function or its Jacobian, for hybrj1.
subroutine broyden_jac(n, x, fvec, fjac, ldfjac, iflag)
  implicit none
  integer, intent(in) :: n, ldfjac, iflag
  double precision, intent(in) :: x(n)
  double precision, intent(inout) :: fvec(n), fjac(ldfjac, n)
  integer :: k
  if (iflag == 1) then
    call broyden(n, x, fvec, iflag)
  else if (iflag == 2) then
    fjac(1:n, 1:n) = 0.0d0
    do k = 1, n
      fjac(k, k) = 3.0d0 - 4.0d0 * x(k)
      if (k > 1) fjac(k, k - 1) = -1.0d0
      if (k < n) fjac(k, k + 1) = -2.0d0
    end do
  end if
end subroutine broyden_jac

program minpackdriver
  use fitdata
  implicit none
  external fit_fcn, fit_jac, fit_row, broyden, broyden_jac
  double precision, external :: enorm, dpmpar
  integer :: m, n, rounds, r, s, info, infos(5)
  integer :: iwa(6)
  character(len=16) :: arg
  real(dp) :: x(6), tol, norms(5)
  real(dp), allocatable :: fvec(:), fjac(:, :), wa(:), xs(:), fs(:), sq(:, :), was(:)
  real(dp), parameter :: start(6) = [3.0_dp, 1.0_dp, 2.0_dp, 0.3_dp, 0.5_dp, 2.0_dp]

  if (command_argument_count() /= 3) then
    write (0, '(a)') 'usage: minpackdriver M N R'
    stop 2
  end if
  call get_command_argument(1, arg)
  read (arg, *) m
  call get_command_argument(2, arg)
  read (arg, *) n
  call get_command_argument(3, arg)
  read (arg, *) rounds
  call make_data(m)
  allocate(fvec(m), fjac(m, 6), wa(m * 6 + 5 * 6 + m))
  allocate(xs(n), fs(n), sq(n, n), was((n * (3 * n + 13)) / 2))
  tol = sqrt(dpmpar(1))
  norms = 0.0_dp
  infos = 0
  do r = 1, rounds
    do s = 0, 3
      x = start * (1.0_dp + 0.05_dp * s)
      call lmdif1(fit_fcn, m, 6, x, fvec, tol, info, iwa, wa, size(wa))
      norms(1) = norms(1) + enorm(m, fvec)
      infos(1) = infos(1) + info
      x = start * (1.0_dp + 0.05_dp * s)
      call lmder1(fit_jac, m, 6, x, fvec, fjac, m, tol, info, iwa, wa, size(wa))
      norms(2) = norms(2) + enorm(m, fvec)
      infos(2) = infos(2) + info
      x = start * (1.0_dp + 0.05_dp * s)
      call lmstr1(fit_row, m, 6, x, fvec, sq, n, tol, info, iwa, wa, size(wa))
      norms(3) = norms(3) + enorm(m, fvec)
      infos(3) = infos(3) + info
    end do
    xs = -1.0_dp
    call hybrd1(broyden, n, xs, fs, tol, info, was, size(was))
    norms(4) = norms(4) + enorm(n, fs)
    infos(4) = infos(4) + info
    xs = -1.0_dp
    call hybrj1(broyden_jac, n, xs, fs, sq, n, tol, info, was, size(was))
    norms(5) = norms(5) + enorm(n, fs)
    infos(5) = infos(5) + info
  end do
  write (*, '(5es12.4)') norms / rounds
  write (*, '(5i6)') infos
end program minpackdriver
